"""How much faster is the compiled search than the same code run as plain Python?

    python -m bench.compare.numba_speedup [--positions 12] [--every 40] [--seed 2048]

Positions come from one seeded game played by the solver. Each is searched with the "fast"
setting, its time budget lifted so that both runs do exactly the same work, in two child
processes: one as installed (numba), one with NUMBA_DISABLE_JIT=1 (plain CPython). Only the
solver's public API is used (default_solver().search). The children report CPU time per search
and the values found; the values must agree, or the comparison is void. The compiled child runs
before and after the plain one, and the faster of its two runs counts.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import time

from engine import Game, solver
from harness import ROOT

UNBOUNDED_FAST = dataclasses.replace(solver.SETTINGS["fast"], time_budget=float("inf"))


def positions_of_a_game(seed: int, every: int, count: int) -> list[list[list[int]]]:
    """Every `every`-th position of a game the solver plays from `seed`, `count` of them."""
    game, positions = Game.new(seed), []
    while len(positions) < count and (direction := solver.choose(game.rows)) is not None:
        if game.moves % every == 0:
            positions.append([list(row) for row in game.rows])
        game.move(direction)
    return positions


def measure(positions: list[list[list[int]]]) -> dict:
    """Search each position once (after one search to load the code); CPU seconds and results."""
    searcher = solver.default_solver()
    searcher.search(positions[0], UNBOUNDED_FAST)
    seconds, values, nodes = [], [], 0
    for rows in positions:
        started = time.process_time()
        found = searcher.search(rows, UNBOUNDED_FAST)
        seconds.append(time.process_time() - started)
        values.append([float(value) for value in found.values])
        nodes += found.nodes
    return {"seconds": sum(seconds), "values": values, "nodes": nodes}


def run_child(positions: list, plain_python: bool) -> dict:
    environ = {**os.environ, "NUMBA_DISABLE_JIT": "1" if plain_python else "0"}
    child = subprocess.run([sys.executable, "-m", __spec__.name, "--measure"],
                           input=json.dumps(positions),
                           env=environ, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(child.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--every", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2048)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(json.loads(sys.stdin.read()))))
        return

    positions = positions_of_a_game(args.seed, args.every, args.positions)
    compiled_first = run_child(positions, plain_python=False)
    plain = run_child(positions, plain_python=True)
    compiled_again = run_child(positions, plain_python=False)
    compiled = min(compiled_first, compiled_again, key=lambda run: run["seconds"])
    if not plain["values"] == compiled_first["values"] == compiled_again["values"]:
        raise SystemExit("the compiled and the plain search disagree: no comparison")
    nodes = compiled["nodes"]
    print(f"{len(positions)} positions (seed {args.seed}, every {args.every}th move), "
          f"setting fast without a time budget, {nodes:,} positions expanded in each run")
    for label, run in (("compiled (numba)", compiled), ("plain Python", plain)):
        per_node_us = run["seconds"] / nodes * 1e6
        print(f"{label:<18} {run['seconds'] * 1000:>10,.1f} ms CPU  {per_node_us:>8.2f} us/position")
    print(f"speed-up: {plain['seconds'] / compiled['seconds']:.0f}x")


if __name__ == "__main__":
    main()
