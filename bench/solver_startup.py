"""Start-up cost of the solver in a fresh process: load time, first hint, resident memory.

    python -m bench.solver_startup

Each measurement runs in a new interpreter, as a restarted web worker would: the time to import
engine.solver and warm it up (tables from the cache directory, compiled code from numba's cache,
the network's weights), the time of the first hint afterwards, and the memory once four
threads have asked for hints at once (the pool lets two search at a time) and the network has
valued a position: resident in all, and the process's own part (anonymous memory; the rest is
files mapped, the network's weights among them, which every worker of a host shares). The
first run fills the caches; the figures printed are from a second run, with warm caches.
"""

import json
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
MEASURE = """
import json, threading, time
started = time.perf_counter()
from engine import solver
from engine.solver.settings import at_time_of
solver.warm_up()
warm = time.perf_counter() - started
rows = [[2, 8, 2, 4], [16, 4, 64, 8], [2, 128, 32, 512], [0, 1024, 4096, 0]]
started = time.perf_counter()
solver.evaluate_moves(rows, "fast")
first_hint = time.perf_counter() - started
threads = [threading.Thread(target=solver.evaluate_moves, args=(rows, "fast")) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
solver.default_solver().evaluate_moves(rows, at_time_of("fast", "network"))
status = open("/proc/self/status").read()
def megabytes(field):
    return int(status.split(field + ":")[1].split()[0]) / 1024
print(json.dumps({"warm_up_s": warm, "first_hint_ms": first_hint * 1000,
                  "resident_mb": megabytes("VmRSS"), "own_mb": megabytes("RssAnon"),
                  "caches": solver.default_solver().caches.made}))
"""


def measure() -> dict:
    result = subprocess.run([sys.executable, "-c", MEASURE], cwd=REPOSITORY, check=True,
                            capture_output=True, text=True)
    return json.loads(result.stdout)


def main() -> None:
    measure()  # fills the table cache and numba's cache
    figures = measure()
    print(f"import and warm-up, warm caches: {figures['warm_up_s']:.3f} s (target under 1 s)")
    print(f"first hint after start-up:      {figures['first_hint_ms']:.1f} ms (target under 50)")
    print(f"resident after 4 threads' hints: {figures['resident_mb']:.0f} MB, of which its own "
          f"{figures['own_mb']:.0f} MB (target under 300), {figures['caches']} caches "
          "(the solver alone; a web worker adds Flask and the app)")


if __name__ == "__main__":
    main()
