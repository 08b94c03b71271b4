"""Acknowledged moves across a Redis failover after a partition, with and without
REDIS_WAIT_REPLICAS, side by side.

    python -m bench.failover [--moves 40] [--held 10] [--tries 3]

For REDIS_WAIT_REPLICAS 0, then 1: a primary, two replicas reaching it through a proxy that can
hold the link (harness/tcp_proxy.py), three Sentinels (the primary down after 300 ms); an app on
the Sentinels (Flask's test client, production's settings but REDIS_TIMEOUT 1 s and
REDIS_WAIT_TIMEOUT 0.2 s) and one player. The player plays --moves moves, the last --held of
them with the link held, as a partition holds it: each is sent until answered 200, up to
--tries times (as the page resends). Then kill -9 of the primary; the Sentinels promote a
replica. It prints the moves acknowledged (answered 200), those the promoted replica kept, those
lost, the 503s met while the link was held, what the player's next move was answered (the
move number the page gets back, against the one it showed) and how long after the kill the app,
unrestarted, served a move again.
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from redis.exceptions import RedisError

from engine import Game
from harness.player import Player
from harness.redis_server import replicated
from webapp import create_app


def stored_seq(app, game_id: str) -> int:
    """The move number of the game as the app's store (the promoted replica) keeps it."""
    with app.app_context():
        return app.extensions["games"].get(game_id).seq


def legal(app, game_id: str) -> str:
    with app.app_context():
        return app.extensions["games"].get(game_id).game.legal_moves()[0]


def one_run(wait_replicas: int, moves: int, held: int, tries: int) -> dict[str, object]:
    """The figures of one failover (see the module's docstring)."""
    with replicated(replicas=2) as redis, tempfile.TemporaryDirectory() as scratch:
        app = create_app({**redis.settings(), "INSTANCE_PATH": str(Path(scratch) / "instance"),
                          "SECRET_KEY": secrets.token_hex(32), "SOLVER_WARM_UP": False,
                          "REDIS_WAIT_REPLICAS": wait_replicas, "REDIS_TIMEOUT": 1.0,
                          "REDIS_WAIT_TIMEOUT": 0.2, "MOVE_RATE_LIMIT": "100000/second"})
        player = Player(app.test_client())
        acknowledged, refused = 0, 0
        for number in range(moves):
            if number == moves - held:
                redis.link.hold()
            for _ in range(tries):
                answer = player.move(legal(app, player.game))
                if answer.status_code == 200:
                    acknowledged = int(answer.headers["X-Seq"])
                    break
                refused += answer.status_code == 503
        killed = time.monotonic()
        redis.fail_over()
        kept = until_answered(lambda: stored_seq(app, player.game))
        while (answer := player.move(legal(app, player.game))).status_code != 200:
            time.sleep(0.05)
        return {"acknowledged": acknowledged, "kept": kept, "refused": refused,
                "next": int(answer.headers["X-Seq"]), "served": time.monotonic() - killed}


def until_answered(read: Callable[[], int]) -> int:
    """read(), tried again while the store cannot be reached (the app finding the new primary)."""
    while True:
        try:
            return read()
        except RedisError:
            time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--held", type=int, default=10)
    parser.add_argument("--tries", type=int, default=3)
    args = parser.parse_args()
    Game.new(seed=1)  # the engine's tables, before any clock runs
    print(f"{args.moves} moves, the last {args.held} with the replicas' link held; each sent up "
          f"to {args.tries} times until answered 200; then kill -9 of the primary")
    print("| REDIS_WAIT_REPLICAS | acknowledged | kept | lost | 503 while held "
          "| next move: page showed → answer's X-Seq | served again after the kill |")
    print("|---|---|---|---|---|---|---|")
    for wait_replicas in (0, 1):
        run = one_run(wait_replicas, args.moves, args.held, args.tries)
        lost = max(0, run["acknowledged"] - run["kept"])
        print(f"| {wait_replicas} | {run['acknowledged']} | {run['kept']} | {lost} "
              f"| {run['refused']} | {run['acknowledged']} → {run['next']} "
              f"| {run['served']:.1f} s |",
              flush=True)


if __name__ == "__main__":
    main()
