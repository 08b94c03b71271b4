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

#: A renewed session's old row becomes the RENEWED marker: unplayed, dated to expire when the
#: renewal's grace ends (parameters: marker, last_played, id).
_MARK_RENEWED = "UPDATE sessions SET data = ?, played = 0, last_played = ? WHERE id = ?"


class SqliteSessions(StoreSessions):
    """Sessions as rows (id, msgpack data, played, last active), kept and evicted like games;
    a move of one of its games renews the row (`SqliteGames.replace`). A session's fresh id
    and its old one's marker are written in one transaction."""

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

    def _delete_session(self, store_id: str) -> None:
        with self.database.transaction() as connection:
            connection.execute("DELETE FROM sessions WHERE id = ?", (store_id,))

    def _upsert_session(
        self, session_lifetime: timedelta, session: ServerSideSession, store_id: str
    ) -> None:
        played, now = session.get("played") is True, time.time()
        data, replaced = self.serializer.encode(session), self.replaced_id(session)
        with self.database.transaction() as connection:
            if replaced:  # first, so the played pool never counts the session twice
                dated = now + self.renewal_grace - self.retention.lifetime(False)
                connection.execute(_MARK_RENEWED, (self.serializer.encode(RENEWED), dated,
                                                   replaced))
            stored = connection.execute(
                "SELECT played FROM sessions WHERE id = ?", (store_id,)
            ).fetchone()
            if stored is None or (played and not stored["played"]):
                self.database.make_room(connection, "sessions", self.retention, now,
                                        arriving_played=played, sparing=store_id)
            connection.execute(_UPSERT, (store_id, data, played, now))
