"""Reviews in the SQLite file beside the games: each game's review text in the ``review`` column
of its row, and the queue in a small table of its own (both made by the schema's migrations)."""

from __future__ import annotations

import time

from webapp.store.retention import Retention
from webapp.store.sqlite_db import Database


class SqliteReviewQueue:
    """`ReviewQueue` in the games' table and the table ``review_queue``."""

    def __init__(self, database: Database, retention: Retention) -> None:
        self.database, self.retention = database, retention
        self.where = str(database.path)

    def review(self, game_id: str) -> str | None:
        """The review column of a kept game."""
        row = self.database.read(
            "SELECT review, played, last_played FROM games WHERE id = ?", (game_id,))
        if row is None or self.retention.expires(bool(row["played"]),
                                                 row["last_played"]) < time.time():
            return None
        return row["review"] if isinstance(row["review"], str) else None

    def replace_review(self, game_id: str, expected: str | None, review: str) -> bool:
        """Compare-and-set on the review column (``IS`` matches NULL too)."""
        with self.database.transaction() as connection:
            return connection.execute(
                "UPDATE games SET review = ? WHERE id = ? AND review IS ?",
                (review, game_id, expected),
            ).rowcount == 1

    def add(self, game_id: str, address: str, session: str, now: float) -> bool:
        with self.database.transaction() as connection:
            if connection.execute("UPDATE review_queue SET lease_until = 0, holder = ''"
                                  " WHERE game_id = ?", (game_id,)).rowcount:
                return True
            taken = connection.execute(
                "SELECT 1 FROM review_queue WHERE address = ? OR session = ?", (address, session)
            ).fetchone()
            if taken:
                return False
            connection.execute("INSERT INTO review_queue VALUES (?, ?, ?, ?, 0, '')",
                               (game_id, address, session, now))
            return True

    def waiting(self, now: float) -> int:
        row = self.database.read("SELECT COUNT(*) FROM review_queue WHERE lease_until < ?",
                                 (now,))
        return row[0]

    def take(self, holder: str, lease: float, now: float) -> str | None:
        free = "SELECT game_id FROM review_queue WHERE lease_until < ? ORDER BY asked LIMIT 1"
        if self.database.read(free, (now,)) is None:  # the usual answer, without a write lock
            return None
        with self.database.transaction() as connection:
            row = connection.execute(free, (now,)).fetchone()
            if row is None:
                return None
            connection.execute("UPDATE review_queue SET lease_until = ?, holder = ?"
                               " WHERE game_id = ?", (now + lease, holder, row[0]))
            return row[0]

    def renew(self, game_id: str, holder: str, lease: float, now: float) -> bool:
        with self.database.transaction() as connection:
            return bool(connection.execute(
                "UPDATE review_queue SET lease_until = ? WHERE game_id = ? AND holder = ?",
                (now + lease, game_id, holder)).rowcount)

    def remove(self, game_id: str, holder: str) -> None:
        with self.database.transaction() as connection:
            connection.execute("DELETE FROM review_queue WHERE game_id = ? AND holder = ?",
                               (game_id, holder))
