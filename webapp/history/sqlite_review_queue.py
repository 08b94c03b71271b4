"""The queue of reviews in the SQLite file beside the games: a small table of its own."""

from __future__ import annotations

from webapp.store.sqlite_db import Database


class SqliteReviewQueue:
    """`ReviewQueue` in the table ``review_queue`` (made by the schema's migrations)."""

    def __init__(self, database: Database) -> None:
        self.database = database

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
