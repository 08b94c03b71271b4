"""What every game store offers (SQLite on one host, Redis for many)."""

from __future__ import annotations

from typing import Protocol

from webapp.store.records import GameRecord


class GameStore(Protocol):
    """Game records by id. Every method raises one of `STORE_ERRORS` when the store fails."""

    def get(self, game_id: str) -> GameRecord | None:
        """The game, or None when there is none, it has expired, or it does not read back as a
        game (then a warning is logged: garbage in the store never reaches a player)."""

    def add(self, record: GameRecord) -> None:
        """Store a new game (making room first when the store is full)."""

    def replace(self, record: GameRecord) -> bool:
        """Write `record` over the stored one if that is still at `record.version`, and count
        the version up; False, writing nothing, if another request wrote first or it is gone."""
