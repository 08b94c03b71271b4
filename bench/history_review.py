"""What a game's history costs on the web: undo requests and the solver's review, on the stored
20,000-move game (harness/long_game.py), and players' moves while a review runs.

    python -m bench.history_review               # everything (a few minutes)
    python -m bench.history_review --latency-seconds 5

Figures, each measured in this run:
- `POST /undo` on the 20,000-move game through the app (SQLite store: read the record, undo,
  write it back, render the fragment): p50 and p99 over `--undos` requests, in CPU time of this
  process and in wall-clock time; the engine's own undo is bench/engine_history.py's;
- the review of all 20,000 positions as the app runs it (the game's solver setting, "fast",
  one thread of its own): CPU seconds and wall-clock seconds, against the under-a-minute target;
- moves of one player (Flask's test client, in the same process as the review, as a gunicorn
  worker's threads would be) while no review runs, beside a busy loop in another process (the
  control: what any other work on the machine costs them, the GIL left out), then while a
  review runs: p50 and p99 latency.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

from engine import Game
from engine.solver import SETTINGS, Solver
from engine.solver.locations import default_cache_dir
from harness import long_game
from harness.live_server import LIFTED_LIMITS
from harness.player import Player
from webapp import create_app
from webapp.review import WORKER
from webapp.review import model as reviews
from webapp.review.analysis import review_game
from webapp.review.worker import NICENESS

TARGET_SECONDS = 60.0


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[round(0.99 * (len(ordered) - 1))]


def percentiles(times: list[float]) -> str:
    return f"p50 {statistics.median(times):7.2f} ms   p99 {p99(times):7.2f} ms   (n={len(times)})"


def timed(player: Player, path: str, **form: str) -> float:
    """Milliseconds an intent took to be served."""
    started = time.perf_counter()
    player.served(path, **form)
    return (time.perf_counter() - started) * 1000


def give(app, player: Player, game: Game) -> None:
    """Make `game` (with its history) the player's current game."""
    games = app.extensions["games"]
    record = games.get(player.game)
    record.game, record.played, record.seq = game, True, player.seq
    assert games.replace(record)


def undo_requests(app, count: int) -> tuple[list[float], list[float]]:
    """(wall-clock ms, CPU ms) of `count` undos in a row, from the end of the long game."""
    player = Player(app.test_client())
    give(app, player, long_game.load())
    wall, cpu = [], []
    for _ in range(count):
        started = time.process_time()
        wall.append(timed(player, "/undo", seq=player.next_seq()))
        cpu.append((time.process_time() - started) * 1000)
    return wall, cpu


def review_time(game: Game) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of the review of every position of `game`, in one thread."""
    solver = Solver(default_cache_dir(), max_searches=1)
    solver.warm_up()
    cpu, wall = time.thread_time(), time.perf_counter()
    review_game(game.history, len(game.history),
                lambda rows: solver.evaluate_moves(rows, SETTINGS["fast"]), lambda done: None)
    return time.thread_time() - cpu, time.perf_counter() - wall


def move_latency(app, seconds: float) -> list[float]:
    """Milliseconds of each move of a fresh player for `seconds` (a new game every 200)."""
    player = Player(app.test_client())
    times, deadline = [], time.monotonic() + seconds
    directions = ("left", "up", "right", "down")
    while time.monotonic() < deadline:
        times.append(timed(player, "/move", direction=directions[player.seq % 4],
                           seq=player.next_seq()))
        if player.seq == 200:
            player.served("/new")
    return times


#: The control for the review's effect on moves: a process doing nothing but keep a core busy,
#: at the review thread's niceness. What it costs the moves, the GIL has nothing to do with.
SPIN = f"import os\nos.nice({NICENESS})\nwhile True:\n    pass"


def latency_during_review(app, seconds: float) -> None:
    idle = move_latency(app, seconds)
    spinner = subprocess.Popen([sys.executable, "-c", SPIN])
    try:
        beside_spinner = move_latency(app, seconds)
    finally:
        spinner.kill()
        spinner.wait()
    owner = Player(app.test_client())
    give(app, owner, long_game.load())
    record = app.extensions["games"].get(owner.game)
    app.extensions[WORKER].ask(record, "127.0.0.1", "session:the-owner")
    while app.extensions[WORKER].stored(owner.game).state == reviews.QUEUED:
        time.sleep(0.1)  # the reviewer's thread has started and built its solver
    busy = move_latency(app, seconds)
    state = app.extensions[WORKER].stored(owner.game)
    print(f"\nmoves of one player, {seconds:.0f} s each (the review had done {state.done:,} of "
          f"{state.moves:,} positions by the end):")
    print(f"  no review running              {percentiles(idle)}")
    print(f"  a busy loop in another process {percentiles(beside_spinner)}")
    print(f"  a review running               {percentiles(busy)}")
    print(f"  p99 with a review / without: {p99(busy) / p99(idle):.2f}; "
          f"beside the busy loop / without: {p99(beside_spinner) / p99(idle):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--undos", type=int, default=200)
    parser.add_argument("--latency-seconds", type=float, default=15.0)
    options = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        app = create_app({"INSTANCE_PATH": scratch, "SECRET_KEY": "bench", **LIFTED_LIMITS})
        game = long_game.load()
        print(f"game: {len(game.history):,} moves, score {game.score:,}, "
              f"largest tile {max(map(max, game.rows))}")

        wall, cpu = undo_requests(app, options.undos)
        print(f"\nPOST /undo on it, {options.undos} in a row (SQLite store):")
        print(f"  CPU         {percentiles(cpu)}")
        print(f"  wall clock  {percentiles(wall)}")

        cpu, wall = review_time(game)
        print(f"\nthe review of all {len(game.history):,} positions ('fast', one thread):")
        print(f"  {cpu:.1f} s CPU, {wall:.1f} s wall clock (target: under {TARGET_SECONDS:.0f} s)")

        latency_during_review(app, options.latency_seconds)


if __name__ == "__main__":
    main()
