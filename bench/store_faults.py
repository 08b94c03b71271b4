"""How fast a store fault becomes a 503, and how fast play resumes once the fault is gone.

    python -m bench.store_faults [--tries 10]

Each case starts the production server (gunicorn.conf.py, 2 workers) on its store, loads the
page as a player, makes one move, then breaks the store and sends the player's next move --tries
times (the same move with the same number, as the page retries it), timing each answer. Then it
mends the store and sends that move again and again, with no pause, until one is served; it
prints how long after the mend that was, and how many tries it took.

- Redis killed: redis-server killed (its data saved first, so it comes back), then restarted.
- Redis hung: redis-server stopped with SIGSTOP (connections accepted, nothing answered), then
  SIGCONT. docs/performance.md promises the next move within a second.
- SQLite file unwritable: the database and its write-ahead log made immutable (chattr +i, which
  binds root too), then writable again.
- SQLite write lock held: another connection holds the write lock (BEGIN IMMEDIATE) past
  SQLITE_BUSY_TIMEOUT, then lets go.

Every move sent while the store was broken must be a 503, and the move after the mend must be
applied once: the bench checks the stored game's move count.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sqlite3
import statistics
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.server_load import Player, Server, load_average, production_server
from engine import DIRECTIONS, slide


@dataclass
class Fault:
    """One way to break a store: what breaks it, what mends it."""

    name: str
    backend: str
    breaks: Callable[[Server], AbstractContextManager]  # broken inside, mended on leaving


@contextmanager
def redis_killed(server: Server) -> Iterator[None]:
    from redis import Redis

    Redis.from_url(server.redis[0].url).save()
    server.redis[0].stop()
    try:
        yield
    finally:
        server.redis[0].start()


@contextmanager
def redis_hung(server: Server) -> Iterator[None]:
    os.kill(server.redis[0].process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.redis[0].process.pid, signal.SIGCONT)


@contextmanager
def sqlite_unwritable(server: Server) -> Iterator[None]:
    path = server.sqlite_path
    files = [str(file) for file in (path, Path(f"{path}-wal")) if file.exists()]
    subprocess.run(["chattr", "+i", *files], check=True)
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *files], check=True)


@contextmanager
def sqlite_locked(server: Server) -> Iterator[None]:
    connection = sqlite3.connect(server.sqlite_path, isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        connection.execute("ROLLBACK")
        connection.close()


FAULTS = (
    Fault("Redis killed", "redis", redis_killed),
    Fault("Redis hung (SIGSTOP)", "redis", redis_hung),
    Fault("SQLite file unwritable", "sqlite", sqlite_unwritable),
    Fault("SQLite write lock held", "sqlite", sqlite_locked),
)


@dataclass
class Outcome:
    latencies: list[float]  # of the moves sent while the store was broken
    statuses: set[int]
    recovery: float  # seconds from the mend to the first move served
    attempts: int  # moves sent after the mend, the served one included
    applied_once: bool


async def timed_move(player: Player, form: dict[str, str]) -> tuple[int, float]:
    started = time.perf_counter()
    answer = await player.request("POST", "/move", form)
    if answer.status == 200:
        player.take(answer)
    return answer.status, time.perf_counter() - started


def next_move(player: Player) -> dict[str, str]:
    """The form of the player's next move: a legal direction, the next number."""
    direction = next(d for d in DIRECTIONS if slide(player.rows, d)[0] != player.rows)
    return player.form({"direction": direction, "seq": player.next_seq()})


async def measure(server: Server, fault: Fault, tries: int) -> Outcome:
    player = await Player(server.port).open()
    await timed_move(player, next_move(player))
    form = next_move(player)
    with fault.breaks(server):
        answers = [await timed_move(player, form) for _ in range(tries)]
    mended, attempts, status = time.perf_counter(), 0, 0
    while status != 200 and time.perf_counter() - mended < 30:
        status, _seconds = await timed_move(player, form)
        attempts += 1
    recovery = time.perf_counter() - mended
    stored = server.stored_moves([player.game])[player.game]
    player.connection.close()
    return Outcome([seconds for _, seconds in answers], {code for code, _ in answers},
                   recovery, attempts, status == 200 and len(stored) == 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=10, help="moves sent while broken")
    args = parser.parse_args()
    print(f"{'fault':<24} {'answers':<8} {'p50 ms':>7} {'max ms':>7} {'served after':>12} "
          f"{'tries':>5} {'once':>5}  load average")
    for fault in FAULTS:
        with production_server(fault.backend) as server:
            outcome = asyncio.run(measure(server, fault, args.tries))
        statuses = "/".join(map(str, sorted(outcome.statuses)))
        print(f"{fault.name:<24} {statuses:<8} {statistics.median(outcome.latencies) * 1000:>7.0f} "
              f"{max(outcome.latencies) * 1000:>7.0f} {outcome.recovery * 1000:>9.0f} ms "
              f"{outcome.attempts:>5} {'yes' if outcome.applied_once else 'NO':>5}  "
              f"{load_average()}", flush=True)


if __name__ == "__main__":
    main()
