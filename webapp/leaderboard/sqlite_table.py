"""The records table in the embedded SQLite database (``record_table``, schema version 4).

Two partial indexes over the shown entries hold each table in its order, so the top hundred
are read from an index's front, never sorted: ``(score DESC, entered)`` for the all-time table
and ``(day, score DESC, entered)`` for a day's; one on ``entered`` lists the newest entries.
"""

from __future__ import annotations

from webapp.leaderboard.entry import SHOWN, Entry, frozen_game, thawed_game
from webapp.store.game_record import GameRecord
from webapp.store.sqlite_db import Database

_FIELDS = ("game_id", "name", "score", "best_tile", "moves", "day", "entered", "hidden")
_SELECT = f"SELECT {', '.join(_FIELDS)} FROM record_table"
_ORDER = " ORDER BY score DESC, entered, game_id LIMIT ?"


def _entry(row) -> Entry:
    return Entry(**{**dict(row), "hidden": bool(row["hidden"])})


class SqliteLeaderboardTable:
    """`LeaderboardTable` on SQLite."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def add(self, entry: Entry, game: GameRecord) -> bool:
        """Insert unless the game is entered already (its id is the key)."""
        values = (*(getattr(entry, name) for name in _FIELDS), frozen_game(game))
        with self.database.transaction() as connection:
            return connection.execute(
                f"INSERT OR IGNORE INTO record_table ({', '.join(_FIELDS)}, game)"
                f" VALUES ({', '.join('?' * (len(_FIELDS) + 1))})", values).rowcount == 1

    def top(self, day: str | None = None, limit: int = SHOWN) -> list[Entry]:
        """Read from the front of the all-time or the day's index."""
        if day is None:
            rows = self.database.read_all(f"{_SELECT} WHERE hidden = 0{_ORDER}", (limit,))
        else:
            rows = self.database.read_all(f"{_SELECT} WHERE hidden = 0 AND day = ?{_ORDER}",
                                          (day, limit))
        return [_entry(row) for row in rows]

    def entry(self, game_id: str) -> Entry | None:
        """The row of the game's entry."""
        row = self.database.read(f"{_SELECT} WHERE game_id = ?", (game_id,))
        return _entry(row) if row else None

    def rank(self, entry: Entry) -> int:
        """One more than the shown entries of its table ahead of it in the table's order."""
        ahead = ("(score > ? OR (score = ? AND (entered < ? OR (entered = ? AND game_id < ?))))")
        values = (entry.score, entry.score, entry.entered, entry.entered, entry.game_id)
        if entry.day is None:
            row = self.database.read(
                f"SELECT count(*) FROM record_table WHERE hidden = 0 AND {ahead}", values)
        else:
            row = self.database.read(
                f"SELECT count(*) FROM record_table WHERE hidden = 0 AND day = ? AND {ahead}",
                (entry.day, *values))
        return row[0] + 1

    def newest(self, limit: int) -> list[Entry]:
        """Read from the back of the ``entered`` index."""
        rows = self.database.read_all(f"{_SELECT} ORDER BY entered DESC LIMIT ?", (limit,))
        return [_entry(row) for row in rows]

    def hide(self, game_id: str) -> bool:
        """Mark the entry hidden (it stays, for the operator's list)."""
        with self.database.transaction() as connection:
            return connection.execute("UPDATE record_table SET hidden = 1 WHERE game_id = ?",
                                      (game_id,)).rowcount == 1

    def game(self, game_id: str) -> GameRecord | None:
        """The entry's frozen game."""
        row = self.database.read("SELECT game FROM record_table WHERE game_id = ?", (game_id,))
        return thawed_game(row["game"], game_id) if row else None
