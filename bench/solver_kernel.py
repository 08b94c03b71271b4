"""Print how many positions a second the solver's search takes against an earlier commit's
search, on the same positions in the same run.

    python -m bench.solver_kernel [--against ac95827] [--rounds 5]

The positions are those of tests/solver/recorded_searches.json (every 40th position of a game
the solver played from seed 1001). Each checkout's search runs in a child process of its own
(the earlier commit's engine extracted with `git archive` into a temporary directory) through
the public API only (Solver(None).search); the two take turns, round by round, each searching
every position once a round, and the CPU time of the searching thread counts. Per side the
median round is reported. Two measures:

  kernel  the heuristic at "fast"'s time (FAST) with no node limit, so both sides expand
          exactly the same positions: their moves, depths and node counts must agree, or the
          comparison is void.
  fast    the same setting with its node limit, each side deepening under its own rule: positions a
          second, how many moves the node limit stopped, and in how many of those a pass had
          started and was thrown away.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from engine import solver
from engine.solver.settings import at_time_of

POSITIONS = ROOT / "tests" / "solver" / "recorded_searches.json"
# The heuristic at "fast"'s time: what "fast" was at the earlier commits (the network plays
# "fast" since 2026-12-03).
FAST = at_time_of("fast", "heuristic")
MEASURES = {
    "kernel": dataclasses.replace(FAST, name="kernel", node_limit=10**12, time_budget=1e9),
    "fast": dataclasses.replace(FAST, name="fast", time_budget=1e9),
}

# A child: reads the positions, then one setting a line; answers each line with the CPU time
# of the searches and what each search found.
WORKER = """
import json, sys, time
from engine.solver import Setting, Solver
searcher = Solver(None)

def dropped_a_pass(search):
    if hasattr(search, "dropped_nodes"):
        return search.dropped_nodes > 0
    return search.stopped_by == "nodes"  # before dropped_nodes, every such stop dropped a pass

positions = json.loads(sys.stdin.readline())
for line in sys.stdin:
    setting = Setting(**json.loads(line))
    searcher.search(positions[0], setting)  # compiled before the clock starts
    found, started = [], time.thread_time()
    for rows in positions:
        found.append(searcher.search(rows, setting))
    seconds = time.thread_time() - started
    print(json.dumps({"seconds": seconds, "searches": [
        [search.best, search.depth, search.nodes, search.stopped_by, dropped_a_pass(search)]
        for search in found]}), flush=True)
"""


class Side:
    """One checkout's search in a child process."""

    def __init__(self, name: str, checkout: Path, positions: list) -> None:
        self.name = name
        self.child = subprocess.Popen(
            [sys.executable, "-c", WORKER], cwd=checkout, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(checkout)})
        self.child.stdin.write(json.dumps(positions) + "\n")

    def run(self, setting: solver.Setting) -> dict:
        """Search every position once with `setting`: seconds and [move, depth, nodes, ...]."""
        self.child.stdin.write(json.dumps(dataclasses.asdict(setting)) + "\n")
        self.child.stdin.flush()
        return json.loads(self.child.stdout.readline())

    def close(self) -> None:
        self.child.stdin.close()
        self.child.wait(timeout=60)


def measure(sides: list[Side], setting: solver.Setting, rounds: int) -> dict[str, dict]:
    """Rounds in turn; per side the median round's seconds and the last round's searches."""
    seconds: dict[str, list[float]] = {side.name: [] for side in sides}
    searches: dict[str, list] = {}
    for round_number in range(rounds):
        for side in sides if round_number % 2 == 0 else reversed(sides):
            answer = side.run(setting)
            seconds[side.name].append(answer["seconds"])
            searches[side.name] = answer["searches"]
    return {name: {"seconds": statistics.median(times), "searches": searches[name]}
            for name, times in seconds.items()}


def report(title: str, results: dict[str, dict], count: int) -> None:
    print(f"\n{title}")
    rates = {}
    for name, result in results.items():
        rates[name] = count / result["seconds"]
        searches = result["searches"]
        by_nodes = sum(search[3] == "nodes" for search in searches)
        dropped = sum(search[4] for search in searches)
        print(f"  {name:>8}: {rates[name]:8.1f} positions/s, {1000 / rates[name]:6.2f} ms a "
              f"position; stopped by the node limit {by_nodes}/{count}, a pass thrown away in "
              f"{dropped}; mean depth {statistics.mean(s[1] for s in searches):.2f}, "
              f"nodes {sum(s[2] for s in searches)}")
    earlier, this = rates.values()
    print(f"  ratio (this / earlier): {this / earlier:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="ac95827", help="earlier commit to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    positions = json.loads(POSITIONS.read_text())["positions"]
    with tempfile.TemporaryDirectory() as earlier:
        archive = subprocess.run(["git", "archive", args.against, "engine"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", earlier], input=archive, check=True)
        sides = [Side(args.against, Path(earlier), positions), Side("this", ROOT, positions)]
        try:
            results = {name: measure(sides, setting, args.rounds)
                       for name, setting in MEASURES.items()}
        finally:
            for side in sides:
                side.close()
    kernel = results["kernel"]
    agree = sum(a[:3] == b[:3] for a, b in zip(*(r["searches"] for r in kernel.values())))
    print(f"{len(positions)} positions, {args.rounds} rounds a side, CPU time of the searching "
          f"thread, median round")
    print(f"kernel: the same move, depth and node count on {agree} of {len(positions)}"
          + ("" if agree == len(positions) else " (the comparison is void)"))
    report("kernel (fast, no node limit: the same work on both sides)", kernel, len(positions))
    report("fast as shipped (each side's own node-limit rule)", results["fast"], len(positions))


if __name__ == "__main__":
    main()
