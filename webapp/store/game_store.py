"""What every game store offers (SQLite on one host, Redis for many)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from webapp.store.game_record import GameRecord, GameSummary


class GameStore(Protocol):
    """Game records by id. Every method raises one of `STORE_ERRORS` when the store fails."""

    def get(self, game_id: str) -> GameRecord | None:
        """The game, or None when there is none, it has expired, or it does not read back as a
        game (then a warning is logged: garbage in the store never reaches a player)."""

    def add(self, record: GameRecord) -> None:
        """Store a new game (making room first when the store is full)."""

    def replace(self, record: GameRecord, session_id: str = "") -> bool:
        """Write `record` over the stored one if that is still at `record.version`, and count
        the version up; False, writing nothing, if another request wrote first or it is gone.
        With the write (SQLite: in its transaction; Redis: in its round trip), the session
        stored under `session_id` (the one whose request this is, if any) is renewed as far as
        the game, never less: a session lives as long as the games it leads to. With replicas
        to wait for (Redis), True only once they hold the write."""

    def settle(self, record: GameRecord) -> None:
        """Return once the game as `record` was read is as safe as a write would be: held by the
        replicas a write waits for (nothing to do without any). For an answer that acknowledges
        a game without changing it."""

    def summaries(self, game_ids: Iterable[str]) -> list[GameSummary]:
        """The listing fields of those of these games that are still kept (in no set order),
        without reading their positions or histories."""
