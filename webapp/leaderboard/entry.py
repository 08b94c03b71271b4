"""An entry of the records table, and what every store of the table offers.

An entry keeps, beside what the table shows, a frozen copy of its game (the game record's stored
fields), so its replay link works for as long as the table shows it, even after the game
itself has expired or been evicted from the game store.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Protocol

from webapp.store.game_record import GameRecord

log = logging.getLogger(__name__)

#: Entries a table shows.
SHOWN = 100


@dataclass(frozen=True)
class Entry:
    """One entered game. `day`: the daily game's day (ISO date), None for an ordinary game."""

    game_id: str
    name: str
    score: int
    best_tile: int
    moves: int
    day: str | None
    entered: float
    hidden: bool = False

    @property
    def rank_key(self) -> tuple[int, float, str]:
        """The table's order: the higher score first, then the earlier entry."""
        return (-self.score, self.entered, self.game_id)


def frozen_game(record: GameRecord) -> str:
    """The text an entry keeps of its game."""
    return json.dumps(record.to_fields(), separators=(",", ":"))


def thawed_game(text: str | bytes | None, game_id: str) -> GameRecord | None:
    """The game an entry keeps, or None (logged when it does not read back)."""
    if text is None:
        return None
    try:
        return GameRecord.from_fields(json.loads(text))
    except (ValueError, TypeError) as error:
        log.warning("the entered game %s does not read back, ignored: %s", game_id, error)
        return None


class LeaderboardTable(Protocol):
    """The records table. Every method raises one of `STORE_ERRORS` when the store fails."""

    def add(self, entry: Entry, game: GameRecord) -> bool:
        """Enter `entry` with a frozen copy of its game; False, changing nothing, if that game
        is entered already."""

    def top(self, day: str | None = None, limit: int = SHOWN) -> list[Entry]:
        """The shown entries in the table's order: all-time, or of one day's daily games."""

    def entry(self, game_id: str) -> Entry | None:
        """The entry of a game, hidden or not, or None."""

    def rank(self, entry: Entry) -> int:
        """Where a shown entry stands in its table (its day's, for a daily game's), from 1."""

    def newest(self, limit: int) -> list[Entry]:
        """The latest entries, hidden ones too, newest first (for the operator)."""

    def hide(self, game_id: str) -> bool:
        """Take an entry off every table; False if there is no such entry."""

    def game(self, game_id: str) -> GameRecord | None:
        """The frozen copy of an entered game, or None."""
