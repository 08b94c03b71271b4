"""The fair queue's own CPU a request, side by side: this working tree's queue against a
baseline commit's, and no queue at all.

    python bench/fair_queue_cpu.py [--baseline SHA] [--runs 5] [--requests 2000]

Each run starts a fresh process that sends --requests requests from 16 threads (gunicorn's
threads a worker) on 8 client addresses through a queue of 2 places (the default
FAIR_QUEUE_SLOTS) around an app spending about 0.2 ms of Python a request, and prints the
process's CPU a request. The three kinds take turns, so all meet the same background load; the
medians and the queue's cost (a kind's CPU less that of no queue) come last.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The queue before a freed place woke only the request it goes to.
BASELINE = "a48122f"
THREADS, ADDRESSES, SLOTS = 16, 8, 2


def app(environ: dict, start_response) -> list[bytes]:
    """About 0.2 ms of Python, like a light request."""
    total = 0
    for number in range(6000):
        total += number
    return [b"done"]


def measure(queue_file: str, requests: int) -> float:
    """CPU seconds a request, through the queue in `queue_file` (none if empty)."""
    served = app
    if queue_file:
        spec = importlib.util.spec_from_file_location("fair_queue_under_test", queue_file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
        served = module.FairQueue(app, slots=SLOTS)

    def client(address: str) -> None:
        for _ in range(requests // THREADS):
            served({"REMOTE_ADDR": address}, None)

    threads = [threading.Thread(target=client, args=(f"192.0.2.{n % ADDRESSES}",))
               for n in range(THREADS)]
    started = time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return (time.process_time() - started) / requests


def run(queue_file: str, requests: int) -> float:
    """`measure` in a fresh process."""
    answer = subprocess.run([sys.executable, __file__, "--measure", queue_file,
                             "--requests", str(requests)], check=True, capture_output=True,
                            text=True)
    return float(answer.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        print(measure(args.measure, args.requests))
        return
    with tempfile.TemporaryDirectory() as scratch:
        baseline = Path(scratch) / "fair_queue.py"
        baseline.write_text(subprocess.run(
            ["git", "show", f"{args.baseline}:webapp/fair_queue.py"], cwd=ROOT, check=True,
            capture_output=True, text=True).stdout)
        kinds = {f"baseline {args.baseline}": str(baseline),
                 "working tree": str(ROOT / "webapp" / "fair_queue.py"), "no queue": ""}
        spent: dict[str, list[float]] = {kind: [] for kind in kinds}
        for number in range(args.runs):
            for kind, queue_file in kinds.items():
                spent[kind].append(run(queue_file, args.requests))
                print(f"run {number + 1}  {kind:<20} {spent[kind][-1] * 1e6:6.0f} µs a request",
                      flush=True)
    bare = statistics.median(spent["no queue"])
    for kind, values in spent.items():
        median = statistics.median(values)
        print(f"{kind:<20} median {median * 1e6:4.0f} µs a request, the queue's own "
              f"{(median - bare) * 1e6:4.0f} µs")


if __name__ == "__main__":
    main()
