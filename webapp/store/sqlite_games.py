"""Game records in the embedded SQLite database (one host; any number of worker processes)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

from webapp.store.game_record import FIELD_TYPES, SUMMARY_FIELDS, GameRecord, GameSummary
from webapp.store.retention import Retention
from webapp.store.sqlite_db import Database

log = logging.getLogger(__name__)

_COLUMNS = tuple(FIELD_TYPES)
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM games WHERE id = ?"
_SELECT_SUMMARIES = f"SELECT {', '.join(SUMMARY_FIELDS)} FROM games WHERE id IN "
_INSERT = f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
_CHANGING = tuple(name for name in _COLUMNS if name not in ("id", "version", "created"))
_REPLACE = (
    f"UPDATE games SET version = version + 1, {', '.join(f'{name} = ?' for name in _CHANGING)}"
    " WHERE id = ? AND version = ?"
)
# A session's recency is its games' last move (never moved back: a hint on a new game is not one).
_RENEW_SESSION = "UPDATE sessions SET last_played = max(last_played, ?) WHERE id = ?"


class SqliteGames:
    """The `GameStore` on SQLite: a write names the version it read (a compare-and-set in the
    UPDATE's WHERE clause), so concurrent requests never lose or double a move, and no lock
    outlives a request."""

    def __init__(self, database: Database, retention: Retention) -> None:
        self.database, self.retention = database, retention

    def get(self, game_id: str) -> GameRecord | None:
        """The game, unless it is missing, expired or unreadable (logged)."""
        row = self.database.read(_SELECT, (game_id,))
        if row is None:
            return None
        try:
            record = GameRecord.from_fields(dict(row))
        except ValueError as error:
            log.warning("game %s does not read back, ignored: %s", game_id, error)
            return None
        return record if self._kept(record.played, record.last_played) else None

    def add(self, record: GameRecord) -> None:
        """Insert a new game, making room for it first."""
        fields = record.to_fields()
        with self.database.transaction() as connection:
            self.database.make_room(connection, "games", self.retention, time.time(),
                                    arriving_played=record.played)
            connection.execute(_INSERT, tuple(fields[name] for name in _COLUMNS))

    def replace(self, record: GameRecord, session_id: str = "") -> bool:
        """Compare-and-set on the version, renewing the session `session_id` in the same
        transaction; a first move makes room for a played game."""
        fields = record.to_fields()
        values = (*(fields[name] for name in _CHANGING), record.id, record.version)
        with self.database.transaction() as connection:
            if record.played and not record.stored_played:
                self.database.make_room(connection, "games", self.retention, time.time(),
                                        arriving_played=True, sparing=record.id)
            written = connection.execute(_REPLACE, values).rowcount == 1
            if written and session_id:
                connection.execute(_RENEW_SESSION, (record.last_played, session_id))
        if written:
            record.version += 1
            record.stored_played = record.played
        return written

    def settle(self, record: GameRecord) -> None:
        """Nothing to wait for: a committed write is on the disk already."""

    def summaries(self, game_ids: Iterable[str]) -> list[GameSummary]:
        """The listing columns of the kept games among `game_ids`, in one query."""
        wanted = tuple(dict.fromkeys(game_ids))
        if not wanted:
            return []
        found = []
        for row in self.database.read_all(
                _SELECT_SUMMARIES + f"({', '.join('?' * len(wanted))})", wanted):
            try:
                summary = GameSummary.from_fields(dict(row))
            except ValueError as error:
                log.warning("game %s does not read back, ignored: %s", row["id"], error)
                continue
            if self._kept(summary.played, summary.last_played):
                found.append(summary)
        return found

    def _kept(self, played: bool, last_played: float) -> bool:
        """Whether an entry with these values has not yet expired."""
        return self.retention.expires(played, last_played) >= time.time()
