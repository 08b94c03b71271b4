"""Game records in the embedded SQLite database (one host; any number of worker processes)."""

from __future__ import annotations

import logging
import time

from webapp.store.records import FIELD_TYPES, GameRecord
from webapp.store.retention import Retention
from webapp.store.sqlite_db import Database

log = logging.getLogger(__name__)

_COLUMNS = tuple(FIELD_TYPES)
_INSERT = f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
_CHANGING = tuple(name for name in _COLUMNS if name not in ("id", "version", "created"))
_REPLACE = (
    f"UPDATE games SET version = version + 1, {', '.join(f'{name} = ?' for name in _CHANGING)}"
    " WHERE id = ? AND version = ?"
)


class SqliteGames:
    """The `GameStore` on SQLite: a write names the version it read (a compare-and-set in the
    UPDATE's WHERE clause), so concurrent requests never lose or double a move, and no lock
    outlives a request."""

    def __init__(self, database: Database, retention: Retention) -> None:
        self.database, self.retention = database, retention

    def get(self, game_id: str) -> GameRecord | None:
        """The game, unless it is missing, expired or unreadable (logged)."""
        row = self.database.read("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            return None
        try:
            record = GameRecord.from_fields(dict(row))
        except ValueError as error:
            log.warning("game %s does not read back, ignored: %s", game_id, error)
            return None
        if self.retention.expires(record.played, record.last_played) < time.time():
            return None
        return record

    def add(self, record: GameRecord) -> None:
        """Insert a new game, making room for it first."""
        fields = record.to_fields()
        with self.database.transaction() as connection:
            self.database.make_room(connection, "games", self.retention, time.time(),
                                    arriving_played=record.played, adding=True)
            connection.execute(_INSERT, tuple(fields[name] for name in _COLUMNS))

    def replace(self, record: GameRecord) -> bool:
        """Compare-and-set on the version; a first move makes room for a played game."""
        fields = record.to_fields()
        values = (*(fields[name] for name in _CHANGING), record.id, record.version)
        with self.database.transaction() as connection:
            if record.played and not record.stored_played:
                self.database.make_room(connection, "games", self.retention, time.time(),
                                        arriving_played=True, adding=False, sparing=record.id)
            written = connection.execute(_REPLACE, values).rowcount == 1
        if written:
            record.version += 1
            record.stored_played = record.played
        return written
