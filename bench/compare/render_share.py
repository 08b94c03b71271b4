"""What share of a move's server time goes to rendering its fragment?

    python -m bench.compare.render_share [--moves 2000] [--seed 2048]

On each store (the embedded SQLite one, then Redis on a redis-server of its own), the app answers legal moves
chosen at random (the same ones on both), through Flask's test client, so the time is the app's own: the WSGI call from the request's arrival to
its answer, limiter, session store and rendering included, HTTP parsing not. Rendering is timed
between Flask's before_render_template and template_rendered signals, inside the same calls.
A finished game is replaced by a new one (not counted).
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
import time
from pathlib import Path

from flask import before_render_template, template_rendered

from engine import Game
from harness.live_server import LIFTED_LIMITS
from harness.player import Player
from harness.redis_server import RedisServer
from webapp import create_app

TILE = re.compile(r'data-value="(\d+)" data-row="(\d)" data-col="(\d)"(?![^>]*data-leaving)')


class Stopwatch:
    """Adds up the seconds between start() and stop() calls."""

    def __init__(self) -> None:
        self.total = 0.0
        self._started = 0.0

    def start(self, *_args, **_kwargs) -> None:
        self._started = time.perf_counter()

    def stop(self, *_args, **_kwargs) -> None:
        self.total += time.perf_counter() - self._started


def timed_app(app, request_clock: Stopwatch):
    """app's WSGI callable, with request_clock running while it builds each answer."""
    inner = app.wsgi_app

    def timed(environ, start_response):
        request_clock.start()
        try:
            return inner(environ, start_response)
        finally:
            request_clock.stop()

    return timed


def legal_moves(fragment: str) -> tuple[str, ...]:
    rows = [[0] * 4 for _ in range(4)]
    for value, row, col in TILE.findall(fragment):
        rows[int(row)][int(col)] = int(value)
    return Game.from_rows(rows).legal_moves() if sum(map(any, rows)) else ()


def move_times(app, moves: int, seed: int) -> tuple[float, float]:
    """Seconds the app spent answering `moves` legal moves, and of those, rendering."""
    choices = random.Random(seed)
    requests, rendering = Stopwatch(), Stopwatch()
    player = Player(app.test_client())
    app.wsgi_app = timed_app(app, requests)
    before_render_template.connect(rendering.start, app)
    template_rendered.connect(rendering.stop, app)
    legal = legal_moves(player.page.text)
    move_time = render_time = 0.0
    for played in range(moves + 1):
        while not legal:
            legal = legal_moves(player.post("/new").text)
        before = requests.total, rendering.total
        answer = player.move(choices.choice(legal))
        if answer.status_code != 200:
            raise SystemExit(f"a move answered {answer.status_code}")
        legal = legal_moves(answer.text)
        if played:  # the first move also compiles the templates: left out
            move_time += requests.total - before[0]
            render_time += rendering.total - before[1]
    return move_time, render_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2048)
    args = parser.parse_args()
    print(f"{args.moves} legal moves (seed {args.seed}) through the app")
    with tempfile.TemporaryDirectory() as instance, RedisServer() as redis_server:
        # A busy machine can starve redis-server past production's 0.25 s call timeout.
        stores = {"sqlite": {}, "redis": {"SESSION_BACKEND": "redis", "REDIS_TIMEOUT": 2.0,
                                              "REDIS_URL": redis_server.url}}
        for store, settings in stores.items():
            app = create_app({"INSTANCE_PATH": str(Path(instance) / store),
                              "SOLVER_WARM_UP": False, **LIFTED_LIMITS, **settings})
            move_time, render_time = move_times(app, args.moves, args.seed)
            print(f"{store:<10} server time per move {move_time / args.moves * 1000:5.2f} ms, "
                  f"rendering {render_time / args.moves * 1000:5.2f} ms: "
                  f"{render_time / move_time:.0%} of it")


if __name__ == "__main__":
    main()
