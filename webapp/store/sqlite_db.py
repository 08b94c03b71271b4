"""The embedded database: one SQLite file in the instance folder holding games and sessions
(and the review queue and the records table beside them).

Python's own ``sqlite3`` module, a connection per thread (and per process: a connection never
crosses a fork), WAL journaling so reads never wait for a write, a busy timeout so a write waits
its turn for a moment instead of failing. The schema carries a version (``PRAGMA user_version``):
a new file gets the current schema, an older one is upgraded step by step at start-up, and a
file from a newer release is refused with a clear error instead of being misread.

A game's row also keeps the text of its review, if one was asked for (``review``, schema
version 2), which only the review's own reads and writes touch.

Both tables keep ``played`` and ``last_played`` with an index on the pair, which is everything
`make_room` needs (the rules are ``retention``'s): expired entries and, past a pool's cap, the
least recently played or the oldest unplayed are found at the front of that index, never by a
scan. Triggers keep each table's entry count in ``entry_counts`` so the cap costs one row read.
A session's ``last_played`` is its games' last move: a game's write sets it in the same transaction.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from webapp.config import ConfigError
from webapp.store.retention import BATCH, FAIR_CHANCE, UNPLAYED_LIFETIME, Retention

TABLES = ("games", "sessions")


def _counted(table: str) -> list[str]:
    """Triggers keeping entry_counts[table, played] equal to the rows of each kind."""
    def count(sign: str, row: str) -> str:
        return (f"UPDATE entry_counts SET entries = entries {sign} 1"
                f" WHERE name = '{table}' AND played = {row}.played;")
    return [
        f"INSERT INTO entry_counts VALUES ('{table}', 0, 0), ('{table}', 1, 0)",
        f"CREATE TRIGGER {table}_added AFTER INSERT ON {table} BEGIN {count('+', 'NEW')} END",
        f"CREATE TRIGGER {table}_removed AFTER DELETE ON {table} BEGIN {count('-', 'OLD')} END",
        f"CREATE TRIGGER {table}_first_played AFTER UPDATE OF played ON {table}"
        f" WHEN OLD.played != NEW.played BEGIN {count('-', 'OLD')} {count('+', 'NEW')} END",
    ]


#: MIGRATIONS[n] turns a version n - 1 database into a version n one.
MIGRATIONS: dict[int, list[str]] = {
    1: [
        """CREATE TABLE entry_counts (
            name TEXT NOT NULL, played INTEGER NOT NULL, entries INTEGER NOT NULL,
            PRIMARY KEY (name, played)
        )""",
        """CREATE TABLE games (
            id TEXT PRIMARY KEY NOT NULL,
            version INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            played INTEGER NOT NULL,
            assisted INTEGER NOT NULL,
            created REAL NOT NULL,
            last_played REAL NOT NULL,
            score INTEGER NOT NULL,
            best_tile INTEGER NOT NULL,
            moves INTEGER NOT NULL,
            status TEXT NOT NULL,
            position TEXT NOT NULL,
            history TEXT NOT NULL
        )""",
        "CREATE INDEX games_by_age ON games (played, last_played)",
        *_counted("games"),
        """CREATE TABLE sessions (
            id TEXT PRIMARY KEY NOT NULL,
            data BLOB NOT NULL,
            played INTEGER NOT NULL,
            last_played REAL NOT NULL
        )""",
        "CREATE INDEX sessions_by_age ON sessions (played, last_played)",
        *_counted("sessions"),
    ],
    # A game's review (webapp.review.model) lives in its row, so it goes when the game goes.
    2: ["ALTER TABLE games ADD COLUMN review TEXT"],
    # The reviews waiting or running (webapp.review.sqlite_queue): one per client address
    # and per session, each held by a worker's lease while it runs.
    3: [
        """CREATE TABLE review_queue (
            game_id TEXT PRIMARY KEY NOT NULL,
            address TEXT NOT NULL UNIQUE,
            session TEXT NOT NULL UNIQUE,
            asked REAL NOT NULL,
            lease_until REAL NOT NULL,
            holder TEXT NOT NULL
        )""",
    ],
    # The records table (webapp.leaderboard.sqlite_table): each entry with a frozen copy of its
    # game, so it outlives the game's own row; each table read from the front of an index.
    4: [
        """CREATE TABLE record_table (
            game_id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            score INTEGER NOT NULL,
            best_tile INTEGER NOT NULL,
            moves INTEGER NOT NULL,
            day TEXT,
            entered REAL NOT NULL,
            hidden INTEGER NOT NULL,
            game TEXT NOT NULL
        )""",
        "CREATE INDEX record_table_by_score ON record_table (score DESC, entered, game_id)"
        " WHERE hidden = 0",
        "CREATE INDEX record_table_by_day ON record_table (day, score DESC, entered, game_id)"
        " WHERE hidden = 0",
        "CREATE INDEX record_table_by_entry ON record_table (entered)",
    ],
    # A game is one text (engine.saved_game), no longer a position and a history side by side.
    # The two texts of a game saved before are kept in the one as {"position": ..., "history":
    # ...}, which webapp.store.game_record still reads; its next write turns it into the new form.
    5: [
        "ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT ''",
        """UPDATE games SET game = '{"position":' || position || ',"history":' || history || '}'""",
        "ALTER TABLE games DROP COLUMN position",
        "ALTER TABLE games DROP COLUMN history",
    ],
    # The day of a daily game ('' for an ordinary one): a daily game deals the day's first two
    # tiles and its own after them, so its seed no longer tells its day. Rows written before
    # keep '' (webapp.days reads their day from their seed, as it was written then).
    6: ["ALTER TABLE games ADD COLUMN day TEXT NOT NULL DEFAULT ''"],
    # Whether a damaged history was repaired (the game went back to its last sound point): a
    # repaired game is kept out of the records for that, not as one played with help. Rows
    # written before keep 0; a repair then also marked the game assisted.
    7: ["ALTER TABLE games ADD COLUMN repaired INTEGER NOT NULL DEFAULT 0"],
}
SCHEMA_VERSION = max(MIGRATIONS)


class Database:
    """The SQLite file at `path`, its schema brought up to date when this is made; a
    ConfigError naming the file and the cause when it cannot be opened for writing."""

    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.path, self.busy_timeout = path, busy_timeout
        self._local = threading.local()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not self._writable():
                raise PermissionError("it cannot be written (read-only file, folder or disk)")
            upgrade(self._connect())
        except (sqlite3.Error, OSError) as error:
            if isinstance(error, OSError) and error.filename:
                cause = f"{error.strerror}: {error.filename}"
            else:
                cause = "it is a folder" if path.is_dir() else str(error)
            raise ConfigError(
                f"cannot open the game database {path}: {cause}. The app needs to write the"
                f" file and to create {path.name}-wal and {path.name}-shm in {path.parent}"
                " (SQLITE_PATH moves it)"
            ) from error

    def _writable(self) -> bool:
        """Whether the file (or its folder, while there is no file) and its write-ahead log can
        be written now. SQLite opens a file it cannot write read-only, and such a connection
        keeps failing every write after the fault is gone."""
        log = self.path.with_name(f"{self.path.name}-wal")
        return all(os.access(file, os.W_OK) for file in (self.path, log) if file.exists()) and (
            self.path.exists() or os.access(self.path.parent, os.W_OK))

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")  # with WAL: durable across crashes
        return connection

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use (again after a fork or a failure, and
        once the file can be written again if it was opened while it could not)."""
        local = self._local
        forked = getattr(local, "pid", None) != os.getpid()
        if forked or (not local.writable and self._writable()):
            if forked:  # a connection the parent process opened: never used, nor closed, here
                local.connection = None
            self.forget_connection()
            writable = self._writable()  # before opening: a file that becomes writable later
            local.connection, local.pid, local.writable = self._connect(), os.getpid(), writable
        return local.connection

    def forget_connection(self) -> None:
        """Drop this thread's connection after a failure; the next use opens a fresh one."""
        connection, self._local.pid = getattr(self._local, "connection", None), None
        if connection is not None:
            connection.close()

    def read(self, sql: str, parameters: tuple) -> sqlite3.Row | None:
        """The first row `sql` selects, or None."""
        rows = self.read_all(sql, parameters)
        return rows[0] if rows else None

    def read_all(self, sql: str, parameters: tuple) -> list[sqlite3.Row]:
        """Every row `sql` selects."""
        try:
            return self.connection().execute(sql, parameters).fetchall()
        except sqlite3.Error:
            self.forget_connection()
            raise

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: the write lock is taken at once, so it never has to upgrade.
        Any failure rolls it back; a database error also drops the connection."""
        connection = self.connection()
        try:
            connection.execute("BEGIN IMMEDIATE")
            yield connection
            connection.execute("COMMIT")
        except BaseException as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                self.forget_connection()
            raise

    def entries(self, connection: sqlite3.Connection, table: str) -> tuple[int, int]:
        """How many rows `table` holds: (unplayed, played), from the trigger-kept counts."""
        counts = dict(connection.execute(
            "SELECT played, entries FROM entry_counts WHERE name = ?", (table,)
        ).fetchall())
        return counts[0], counts[1]

    def make_room(
        self, connection: sqlite3.Connection, table: str, retention: Retention, now: float,
        arriving_played: bool, sparing: str = "",
    ) -> None:
        """Inside a write, before an entry arrives in `table`'s played or unplayed pool (a new
        row, or an unplayed row becoming played): delete up to BATCH expired entries of each
        kind and, when the arriving entry's pool is full, up to BATCH more from its front in
        the (played, last_played) index: the least recently played, or the oldest unplayed
        among those at least FAIR_CHANCE old. The entry with id `sparing` (the one arriving)
        is never removed."""
        assert table in TABLES
        for played, cutoff in ((0, now - UNPLAYED_LIFETIME), (1, now - retention.played_lifetime)):
            self._delete_front(connection, table, played, cutoff, BATCH)
        unplayed, played = self.entries(connection, table)
        if arriving_played:
            self._delete_front(connection, table, 1, now, played + 1 - retention.max_entries,
                               sparing)
        else:
            self._delete_front(connection, table, 0, now - FAIR_CHANCE,
                               unplayed + 1 - retention.unplayed_quota, sparing)

    @staticmethod
    def _delete_front(connection: sqlite3.Connection, table: str, played: int, before: float,
                      count: int, sparing: str = "") -> None:
        """Delete the first `count` (at most BATCH) entries of `table`'s played or unplayed
        pool last active before `before`, but the one with id `sparing`."""
        if count > 0:
            connection.execute(delete_front_sql(table),
                               (played, before, sparing, min(count, BATCH)))


def delete_front_sql(table: str) -> str:
    """The statement `make_room` deletes with: the front of one pool of `table` in its
    (played, last_played) index, read from the index, never a scan of the table (parameters:
    played, before, sparing, count)."""
    return (f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table}"
            " WHERE played = ? AND last_played < ? AND id != ?"
            " ORDER BY played, last_played LIMIT ?)")


def upgrade(connection: sqlite3.Connection) -> None:
    """Bring the schema to SCHEMA_VERSION; ConfigError for a database newer than this code."""
    try:
        connection.execute("BEGIN IMMEDIATE")
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ConfigError(
                f"the game database is schema version {version}, newer than this release's"
                f" {SCHEMA_VERSION}: run the newer release, or point it at another file"
            )
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[step]:
                connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("COMMIT")
    finally:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        connection.close()
