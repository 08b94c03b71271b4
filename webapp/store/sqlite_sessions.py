"""Browser sessions in the embedded SQLite database, through Flask-Session's interface."""

from __future__ import annotations

import time
from datetime import timedelta

from flask import Flask
from flask_session.base import ServerSideSession

from webapp.store.retention import Retention
from webapp.store.sessions import RENEWED, StoreSessions
from webapp.store.sqlite_db import Database

_UPSERT = (
    "INSERT INTO sessions (id, data, played, last_played) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (id) DO UPDATE SET"
    " data = excluded.data, played = excluded.played, last_played = excluded.last_played"
)


class SqliteSessions(StoreSessions):
    """Sessions as rows (id, msgpack data, played, last active), kept and evicted like games;
    a move of one of its games renews the row (`SqliteGames.replace`)."""

    ttl = True  # expiry is ours (see make_room), not Flask-Session's periodic clean-up

    def __init__(self, app: Flask, database: Database, retention: Retention) -> None:
        super().__init__(app, key_prefix="", permanent=True)
        self.database, self.retention = database, retention
        self.where = str(database.path)

    def _retrieve_session_data(self, store_id: str) -> dict | None:
        row = self.database.read(
            "SELECT data, played, last_played FROM sessions WHERE id = ?", (store_id,)
        )
        if row is None or not isinstance(row["data"], bytes):
            return None
        if self.retention.expires(bool(row["played"]), row["last_played"]) < time.time():
            return None
        return self.decode(row["data"])

    def _mark_renewed(self, store_id: str) -> None:
        """An unplayed row, dated so that it expires `renewal_grace` seconds from now."""
        dated = time.time() + self.renewal_grace - self.retention.lifetime(False)
        marker = self.serializer.encode(RENEWED)
        with self.database.transaction() as connection:
            connection.execute("UPDATE sessions SET data = ?, played = 0, last_played = ?"
                               " WHERE id = ?", (marker, dated, store_id))

    def _delete_session(self, store_id: str) -> None:
        with self.database.transaction() as connection:
            connection.execute("DELETE FROM sessions WHERE id = ?", (store_id,))

    def _upsert_session(
        self, session_lifetime: timedelta, session: ServerSideSession, store_id: str
    ) -> None:
        played, now = session.get("played") is True, time.time()
        data = self.serializer.encode(session)
        with self.database.transaction() as connection:
            stored = connection.execute(
                "SELECT played FROM sessions WHERE id = ?", (store_id,)
            ).fetchone()
            if stored is None or (played and not stored["played"]):
                self.database.make_room(connection, "sessions", self.retention, now,
                                        arriving_played=played, sparing=store_id)
            connection.execute(_UPSERT, (store_id, data, played, now))
