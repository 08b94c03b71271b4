"""Does a change cost the move request server CPU? This working tree's move against a baseline
commit's, side by side in one run.

    python -m bench.compare.move_cpu [--baseline SHA] [--tree SHA] [--rounds 6] [--moves 300]
    python -m bench.compare.move_cpu --profile [--store redis] [--moves 300]

The baseline commit is unpacked (``git archive``) into a scratch folder. For each side and each
store (the embedded SQLite file, Redis on a redis-server of its own) one worker process builds
that side's app (its own webapp and engine; this tree's player and worker code) and plays
seeded games through Flask's WSGI call in-process, so the figure is the app's own CPU
(``time.process_time`` around the WSGI call: session, limiter, load, move, save, rendering),
not HTTP parsing. The players' choices are the same on both sides: a corner
preference with one random move in five among the moves that move (on a copy of each game as
the server stored it), over games from the same seeds, so both sides answer the same moves on
the same boards and histories. Slices of --moves moves alternate between the two sides, each
round starting with the other one, so both meet the same background load. It prints each side's
CPU per move and the ratio, per store.

With --profile it profiles the working tree's moves instead (cProfile, SQLite or --store) and
prints the share of the request spent in loading, moving, saving and rendering.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from harness import ROOT
from harness.checkout import unpacked

if TYPE_CHECKING:
    from flask import Flask

#: main before the code was laid out by concern (bench/, harness/, webapp's wings): a move may
#: cost no more CPU than it did there.
BASELINE = "993fd37"
STORES = ("sqlite", "redis")
#: Optional modules a library uses when they are installed (redis-py parses with hiredis): a
#: side whose pyproject.toml does not ask for one runs without it, as its own install would.
ACCELERATORS = ("hiredis",)
PREFERENCE = ("down", "left", "right", "up")


class Worker:
    """One side's app on one store, in-process, playing seeded games through its WSGI call
    (the app `make_app` builds from its settings, `create_app` by default)."""

    def __init__(self, store: str, redis_url: str, instance: str,
                 make_app: Callable[[dict], Flask] | None = None) -> None:
        import engine.rng
        from harness.live_server import LIFTED_LIMITS
        from harness.player import Player
        from webapp import create_app

        seeds = random.Random(2048)
        engine.rng.new_seed = lambda: seeds.getrandbits(64)  # every game from a known seed
        settings = {"SESSION_BACKEND": "redis", "REDIS_URL": redis_url, "REDIS_TIMEOUT": 2.0
                    } if store == "redis" else {}
        self.app = (make_app or create_app)({"INSTANCE_PATH": instance,
                                             "SOLVER_WARM_UP": False, **LIFTED_LIMITS, **settings})
        self.player = Player(self.app.test_client())
        self.choices = random.Random(7)
        self._new_game()
        self.cpu = 0.0
        inner = self.app.wsgi_app

        def timed(environ, start_response):
            started = time.process_time()
            try:
                return inner(environ, start_response)
            finally:
                self.cpu += time.process_time() - started

        self.app.wsgi_app = timed

    def _new_game(self) -> None:
        self.player.post("/new")
        # The player's copy of the game, to choose moves that move: the server's, as stored.
        self.mirror = self.app.extensions["games"].get(self.player.game).game

    def play(self, moves: int) -> float:
        """Play `moves` moves (new games and win answers not counted); CPU seconds per move."""
        spent = 0.0
        for _ in range(moves):
            while not self.mirror.legal_moves():
                if self.mirror.awaiting_choice:
                    self.player.post("/keep-playing")
                    self.mirror.keep_playing()
                else:
                    self._new_game()
            legal = self.mirror.legal_moves()
            direction = (self.choices.choice(legal) if self.choices.random() < 0.2
                         else next(d for d in PREFERENCE if d in legal))
            before, seq = self.cpu, self.player.seq + 1
            answer = self.player.move(direction)
            spent += self.cpu - before
            if answer.status_code != 200 or self.player.seq != seq:
                raise SystemExit(f"a move answered {answer.status_code}")
            if "Nothing moves" in answer.text:
                raise SystemExit("the server's game and the player's copy went apart")
            self.mirror.move(direction)
        return spent / moves


def serve(store: str, redis_url: str) -> None:
    """A worker on stdin/stdout: each line read is a number of moves, each line written the CPU
    seconds per move."""
    project = Path("pyproject.toml").read_text()  # the side's own, in its folder
    for module in ACCELERATORS:
        if f'"{module}' not in project:
            sys.modules[module] = None  # importing it fails, as where it is not installed
    with tempfile.TemporaryDirectory() as instance:
        worker = Worker(store, redis_url, instance)
        worker.play(20)  # templates compiled, caches warm
        print("ready", flush=True)
        for line in sys.stdin:
            print(json.dumps(worker.play(int(line))), flush=True)


def start(root: Path, store: str, redis_url: str, ours: Path) -> subprocess.Popen:
    """A worker importing the app (webapp, engine) from `root` and this tree's worker and
    player from `ours`, a folder holding only this tree's bench and harness."""
    environ = {**os.environ, "PYTHONPATH": f"{ours}{os.pathsep}{root}"}
    process = subprocess.Popen(
        [sys.executable, str(ours / "bench" / "compare" / "move_cpu.py"), "--serve", store,
         "--redis-url", redis_url], cwd=root,
        env=environ, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    if process.stdout.readline().strip() != "ready":
        raise SystemExit(f"the worker on {root} did not start")
    return process


def ask(process: subprocess.Popen, moves: int) -> float:
    process.stdin.write(f"{moves}\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())


def worker_code(into: Path) -> Path:
    """A folder with this tree's bench and harness only (linked), so that a worker takes them
    from here and everything else from its side's tree."""
    into.mkdir()
    for package in ("bench", "harness"):
        (into / package).symlink_to(ROOT / package, target_is_directory=True)
    return into


def compare(baseline: str, tree: str, rounds: int, moves: int) -> None:
    from harness.redis_server import RedisServer

    with tempfile.TemporaryDirectory() as scratch, RedisServer() as redis_server:
        measured = unpacked(tree, Path(scratch) / "tree") if tree else ROOT
        roots = {"baseline": unpacked(baseline, Path(scratch) / "baseline"),
                 "working tree": measured}
        ours = worker_code(Path(scratch) / "worker")
        print(f"baseline {baseline[:12]} against {tree[:12] or 'the working tree'}; {rounds} "
              f"rounds of {moves} moves a side and store; load average "
              f"{' '.join(f'{load:.1f}' for load in os.getloadavg())}")
        for store in STORES:
            workers = {side: start(root, store, redis_server.url, ours)
                       for side, root in roots.items()}
            spent = {side: [] for side in workers}
            for round_ in range(rounds):
                for side in (list(workers) if round_ % 2 == 0 else list(workers)[::-1]):
                    spent[side].append(ask(workers[side], moves))
            for process in workers.values():
                process.stdin.close()
                process.wait()
            mean = {side: sum(values) / len(values) for side, values in spent.items()}
            ratios = [tree / base for base, tree in zip(spent["baseline"], spent["working tree"])]
            print(f"{store:<7}" + "".join(f"  {side} {cpu * 1000:.3f} ms" for side, cpu
                                          in mean.items())
                  + f"  ratio {mean['working tree'] / mean['baseline']:.2f}"
                  + f"  (median of the rounds' {statistics.median(ratios):.2f}, range"
                  + f" {min(ratios):.2f}-{max(ratios):.2f})")


def profile(moves: int, store: str) -> None:
    """Where a move request's time goes in the working tree."""
    import cProfile
    import pstats
    from contextlib import ExitStack

    from harness.redis_server import RedisServer

    with tempfile.TemporaryDirectory() as instance, ExitStack() as stack:
        url = stack.enter_context(RedisServer()).url if store == "redis" else ""
        worker = Worker(store, url, instance)
        worker.play(20)
        profiler = cProfile.Profile()
        profiler.runcall(worker.play, moves)
    stats = pstats.Stats(profiler)
    total = sum(stat[3] for key, stat in stats.stats.items() if key[2] == "timed")
    parts = {
        "load": ("webapp/game/current.py", "for_page"),
        "move": ("webapp/game/play.py", "act"),
        "save": ("webapp/store/", "replace"),
        "render": ("webapp/game/rendering.py", "render_update"),
    }
    for name, (path, function) in parts.items():
        found = sum(stat[3] for key, stat in stats.stats.items()
                    if key[0].endswith(path) or (path.endswith("/") and path in key[0])
                    if key[2] == function)
        print(f"{name:<7} {found / total:5.0%}")
    stats.sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(40)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--tree", default="", help="a commit to measure instead of the working tree")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--store", choices=STORES, default="sqlite", help="the store --profile uses")
    parser.add_argument("--serve", choices=STORES, help=argparse.SUPPRESS)
    parser.add_argument("--redis-url", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.redis_url)
    elif args.profile:
        profile(args.moves, args.store)
    else:
        compare(args.baseline, args.tree, args.rounds, args.moves)


if __name__ == "__main__":
    main()
