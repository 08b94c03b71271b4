"""The rate limits' counters on the embedded store: an SQLite file of their own beside the game
database, so that every worker process on the host draws on one budget per client (counted in
each process's memory, N workers would give a client N budgets).

A storage for the `limits` library (the one `webapp.limits` counts with), registered under the
scheme ``sqlite-counters``: ``sqlite-counters:///path/to/file?busy_timeout=2`` (seconds a
hit waits for another process's). It keeps fixed windows: a row
per key holds its count and when its window ends; the first hit after that starts a new one.
Each hit is one statement, so two processes counting at once never lose a hit. The file is a
cache, not a record: it is written without waiting for the disk (``synchronous = OFF``) and
never in the game database, so counting never holds up a game's write; ended windows are
deleted now and then (every PRUNE_EVERY hits of a thread).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from urllib.parse import parse_qs, urlparse

from limits.storage import Storage

SCHEME = "sqlite-counters"
PRUNE_EVERY = 1000
_SCHEMA = ("CREATE TABLE IF NOT EXISTS counters ("
           " key TEXT PRIMARY KEY NOT NULL, count INTEGER NOT NULL, window_end REAL NOT NULL)")
_HIT = (
    "INSERT INTO counters (key, count, window_end) VALUES (:key, :amount, :now + :window)"
    " ON CONFLICT (key) DO UPDATE SET"
    " count = CASE WHEN window_end <= :now THEN :amount ELSE count + :amount END,"
    " window_end = CASE WHEN window_end <= :now THEN :now + :window ELSE window_end END"
    " RETURNING count"
)


def counters_uri(path: os.PathLike | str, busy_timeout: float) -> str:
    """The storage URI of the counters file at `path`."""
    return f"{SCHEME}://{os.path.abspath(path)}?busy_timeout={busy_timeout}"


class SqliteCounters(Storage):
    """Fixed-window counters in the SQLite file the URI names, shared by every process using
    it; a connection per thread and per process."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: float | str | bool
                 ) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        parts = urlparse(uri)
        self.path = parts.path
        self.busy_timeout = float(parse_qs(parts.query).get("busy_timeout", ["2"])[0])
        self._local = threading.local()
        self._connection().execute(_SCHEMA)

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _connection(self) -> sqlite3.Connection:
        local = self._local
        if getattr(local, "pid", None) != os.getpid():  # new thread, or a forked process
            local.connection = sqlite3.connect(self.path, timeout=self.busy_timeout,
                                               isolation_level=None, check_same_thread=False)
            local.connection.execute("PRAGMA journal_mode = WAL")
            local.connection.execute("PRAGMA synchronous = OFF")
            local.pid, local.hits = os.getpid(), 0
        return local.connection

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """Add `amount` to `key`'s count in its window of `expiry` seconds; the new count."""
        connection, now = self._connection(), time.time()
        self._local.hits += 1
        if self._local.hits % PRUNE_EVERY == 0:
            connection.execute("DELETE FROM counters WHERE window_end <= ?", (now,))
        return connection.execute(
            _HIT, {"key": key, "amount": amount, "now": now, "window": expiry}).fetchone()[0]

    def get(self, key: str) -> int:
        """`key`'s count in its current window (0 once the window has ended)."""
        row = self._connection().execute(
            "SELECT count FROM counters WHERE key = ? AND window_end > ?", (key, time.time())
        ).fetchone()
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        """When `key`'s current window ends (now, if it has none)."""
        row = self._connection().execute(
            "SELECT window_end FROM counters WHERE key = ?", (key,)).fetchone()
        return max(row[0], time.time()) if row else time.time()

    def check(self) -> bool:
        """Whether the file answers."""
        try:
            self._connection().execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int:
        """Forget every counter; how many there were."""
        return self._connection().execute("DELETE FROM counters").rowcount

    def clear(self, key: str) -> None:
        """Forget `key`'s counter."""
        self._connection().execute("DELETE FROM counters WHERE key = ?", (key,))
