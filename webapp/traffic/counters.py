"""Where the budgets' counts live, in fixed windows: in Redis when the games are there, so
every worker and host shares them, else in an SQLite file of their own beside the game database,
which every worker process on the host shares (counted in each process's memory, N workers
would give a client N budgets).

A request draws on several counters at once (its session's and its address's, each in every
window of its budget); both stores draw them in one round trip, in the order given, and stop at
the first one the request overdraws: its count has gone past the limit (the request is
refused, as the `limits` library's fixed windows do), and the later ones are left as they were.

A window starts with the first hit on its key and ends `window` seconds later; the next hit
after that starts a new one. The SQLite file is a cache, not a record: it is written without
waiting for the disk (``synchronous = OFF``) and never in the game database, so counting never
holds up a game's write; ended windows are deleted now and then (every PRUNE_EVERY draws of a
thread).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from redis import Redis

from webapp.store.redis_client import address

PRUNE_EVERY = 1000


@dataclass(frozen=True)
class Draw:
    """One counter a request draws on: its key, its window's length in seconds and how many
    requests the window allows."""

    key: str
    window: int
    limit: int


@dataclass(frozen=True)
class Overdrawn:
    """The first counter a request overdrew (its index in the draws) and when its window ends
    (seconds since the epoch)."""

    index: int
    ends: float


class Counters(Protocol):
    """A store of counters: what `SqliteCounters` and `RedisCounters` offer the budgets."""

    where: str  # the store, as logs name it

    def draw(self, draws: Sequence[Draw], cost: int) -> Overdrawn | None:
        """Add `cost` to each counter in turn, stopping at the first it takes past its limit."""


_SCHEMA = ("CREATE TABLE IF NOT EXISTS counters ("
           " key TEXT PRIMARY KEY NOT NULL, count INTEGER NOT NULL, window_end REAL NOT NULL)")
_HIT = (
    "INSERT INTO counters (key, count, window_end) VALUES (:key, :cost, :now + :window)"
    " ON CONFLICT (key) DO UPDATE SET"
    " count = CASE WHEN window_end <= :now THEN :cost ELSE count + :cost END,"
    " window_end = CASE WHEN window_end <= :now THEN :now + :window ELSE window_end END"
    " RETURNING count, window_end"
)


class SqliteCounters:
    """Counters in the SQLite file at `path`, shared by every process using it (a connection
    per thread and per process); a draw waits up to `busy_timeout` seconds for another's."""

    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.path, self.busy_timeout = path, busy_timeout
        self.where = str(path)
        self._local = threading.local()
        self._connection().execute(_SCHEMA)

    def _connection(self) -> sqlite3.Connection:
        local = self._local
        if getattr(local, "pid", None) != os.getpid():  # new thread, or a forked process
            local.connection = sqlite3.connect(self.path, timeout=self.busy_timeout,
                                               isolation_level=None, check_same_thread=False)
            local.connection.execute("PRAGMA journal_mode = WAL")
            local.connection.execute("PRAGMA synchronous = OFF")
            local.pid, local.draws = os.getpid(), 0
        return local.connection

    def draw(self, draws: Sequence[Draw], cost: int) -> Overdrawn | None:
        """One transaction: each counter in turn, until one is overdrawn."""
        connection, now = self._connection(), time.time()
        self._local.draws += 1
        with connection:  # BEGIN ... COMMIT (ROLLBACK on an error)
            connection.execute("BEGIN IMMEDIATE")
            if self._local.draws % PRUNE_EVERY == 0:
                connection.execute("DELETE FROM counters WHERE window_end <= ?", (now,))
            for index, draw in enumerate(draws):
                count, ends = connection.execute(_HIT, {
                    "key": draw.key, "cost": cost, "now": now, "window": draw.window}).fetchone()
                if count > draw.limit:
                    return Overdrawn(index, ends)
        return None


# KEYS the counters in turn; ARGV[1] the cost, then each counter's window (seconds) and limit.
# Returns 0 when every counter had room, else the overdrawn counter's place (from 1) and the
# milliseconds left in its window.
_DRAW = """
local cost = tonumber(ARGV[1])
for place, key in ipairs(KEYS) do
  local count = redis.call('INCRBY', key, cost)
  if count == cost then redis.call('EXPIRE', key, ARGV[2 * place]) end
  if count > tonumber(ARGV[2 * place + 1]) then
    return {place, redis.call('PTTL', key)}
  end
end
return 0
"""


class RedisCounters:
    """Counters in Redis, drawn by one Lua script."""

    def __init__(self, client: Redis) -> None:
        self.where = address(client)
        self._draw = client.register_script(_DRAW)

    def draw(self, draws: Sequence[Draw], cost: int) -> Overdrawn | None:
        """One script: each counter in turn, until one is overdrawn."""
        arguments = [cost, *(value for draw in draws for value in (draw.window, draw.limit))]
        answer = self._draw(keys=[draw.key for draw in draws], args=arguments)
        if not answer:
            return None
        place, left_ms = answer
        return Overdrawn(place - 1, time.time() + max(left_ms, 0) / 1000)
