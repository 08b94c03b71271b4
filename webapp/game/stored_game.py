"""The player's game in the session: the engine's dict, the last applied move number, and
whether the solver has helped in this game. Nothing else is stored."""

import logging
from dataclasses import dataclass

from flask import session

from engine import Game

log = logging.getLogger(__name__)


@dataclass
class StoredGame:
    """A game as kept between requests."""

    game: Game
    seq: int = 0
    assisted: bool = False


def load() -> StoredGame:
    """The session's game, or a fresh one when there is none or it does not validate."""
    stored = session.get("game")
    if stored is None:
        return StoredGame(Game.new())
    seq = session.get("seq", 0)
    try:
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ValueError(f"bad seq {seq!r}")
        return StoredGame(Game.from_dict(stored), seq, session.get("assisted") is True)
    except ValueError as error:
        log.warning("Stored game rejected, starting a new one: %s", error)
        return StoredGame(Game.new())


def save(stored: StoredGame) -> None:
    """Write the game back into the session."""
    session["game"] = stored.game.to_dict()
    session["seq"] = stored.seq
    session["assisted"] = stored.assisted


def start_new(previous: StoredGame) -> StoredGame:
    """A new game that keeps counting moves from where the previous one stopped, one number
    on: a move another tab sent for the replaced game is then refused, not played on this one."""
    return StoredGame(Game.new(), seq=previous.seq + 1)
