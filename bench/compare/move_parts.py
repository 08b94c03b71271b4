"""Where does a move request's CPU go beyond the yardstick's? In-process, side by side in one run.

    python -m bench.compare.move_parts [--store sqlite|redis] [--rounds 8] [--requests 300]

bench/server_load.py compares the move route's throughput with the yardstick's (a route that
reads the current game's record and writes it back, harness/yardstick.py). This takes the
difference apart on one app (bench/compare/move_cpu.py's seeded player, through the WSGI call,
CPU of the call): slices of --requests requests of each kind below take turns, round by round, and
each kind's median slice is printed with the yardstick's share of it.

  yardstick            the route as server_load.py posts it (an empty form)
  yardstick + form     the same with a move's form (game, direction, number) to parse
  move, not rendered   the move route, its answer a bare list of the tiles (no view, no template)
  move, no template    the same with the answer's view built (GameView), its template not drawn
  move                 the move route as it is

The steps between them are what the form, the move itself (with loading the position it
changed and saving it), the view and the template each cost a request.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from contextlib import ExitStack

from bench.compare.move_cpu import STORES, Worker
from harness.redis_server import RedisServer
from harness.yardstick import with_yardstick
from webapp import create_app
from webapp.game import rendering, routes

KINDS = ("yardstick", "yardstick + form", "move, not rendered", "move, no template", "move")


class Answers:
    """The move route's answer, drawn in full or in part (`drawn`: "all", "view" or "none")."""

    def __init__(self) -> None:
        self.drawn = "all"

    def render_update(self, record, event, direction=None, points=0):
        """What `rendering.render_update` answers, or a moved answer drawn only in part."""
        if self.drawn == "all" or event != "moved":
            return rendering.render_update(record, event, direction, points)
        if self.drawn == "view":
            rendering.view_of(record, event, direction, points)
        tiles = " ".join(f'data-value="{value}" data-row="{row}" data-col="{col}"'
                         for row, values in enumerate(record.game.rows)
                         for col, value in enumerate(values) if value)
        return tiles, {rendering.SEQ_HEADER: str(record.seq)}


def touch(worker: Worker, requests: int, form: bool) -> float:
    """CPU seconds per yardstick request, posted with a move's form or an empty one."""
    spent = 0.0
    player = worker.player
    for _ in range(requests):
        data = player.form({"direction": "left", "seq": player.next_seq()}) if form else {}
        before = worker.cpu
        answer = player.client.post("/bench/session", headers=player.headers(), data=data)
        spent += worker.cpu - before
        if answer.status_code != 200:
            raise SystemExit(f"the yardstick answered {answer.status_code}")
        player.seq = int(answer.text)
    return spent / requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", choices=STORES, default="sqlite")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    answers = Answers()
    routes.render_update = answers.render_update
    with tempfile.TemporaryDirectory() as instance, ExitStack() as stack:
        url = stack.enter_context(RedisServer()).url if args.store == "redis" else ""
        worker = Worker(args.store, url, instance,
                        make_app=lambda settings: with_yardstick(create_app(settings)))
        worker.play(20)  # templates compiled, caches warm
        spent: dict[str, list[float]] = {kind: [] for kind in KINDS}
        drawn = {"move, not rendered": "none", "move, no template": "view", "move": "all"}
        for round_ in range(args.rounds):
            for kind in KINDS if round_ % 2 == 0 else KINDS[::-1]:
                if kind.startswith("yardstick"):
                    spent[kind].append(touch(worker, args.requests, form=kind != "yardstick"))
                else:
                    answers.drawn = drawn[kind]
                    spent[kind].append(worker.play(args.requests))
    print(f"{args.store}, {args.rounds} rounds of {args.requests} requests a kind: CPU a request "
          "(median slice), the yardstick's share of it, the step from the line before")
    yardstick, previous = statistics.median(spent["yardstick"]), None
    for kind in KINDS:
        cpu = statistics.median(spent[kind])
        step = f"  {(cpu - previous) * 1e6:+5.0f} us" if previous is not None else ""
        print(f"  {kind:<20} {cpu * 1e6:5.0f} us  {yardstick / cpu:4.0%}{step}")
        previous = cpu


if __name__ == "__main__":
    main()
