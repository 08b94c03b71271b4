"""The player's game in the session: the engine's dict, the last applied move number, and
whether the solver has helped in this game. Nothing else is stored."""

import logging
from dataclasses import dataclass

from flask import session

from engine import Game

log = logging.getLogger(__name__)


@dataclass
class SavedGame:
    """A game as kept between requests."""

    game: Game
    seq: int = 0
    assisted: bool = False


def load() -> SavedGame:
    """The session's game, or a fresh one when there is none or it does not validate."""
    stored = session.get("game")
    if stored is None:
        return SavedGame(Game.new())
    seq = session.get("seq", 0)
    try:
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ValueError(f"bad seq {seq!r}")
        return SavedGame(Game.from_dict(stored), seq, session.get("assisted") is True)
    except ValueError as error:
        log.warning("Stored game rejected, starting a new one: %s", error)
        return SavedGame(Game.new())


def save(saved: SavedGame) -> None:
    """Write the game back into the session."""
    session["game"] = saved.game.to_dict()
    session["seq"] = saved.seq
    session["assisted"] = saved.assisted


def start_new(previous: SavedGame) -> SavedGame:
    """A new game that keeps counting moves from where the previous one stopped, one number
    on: a move another tab sent for the replaced game is then refused, not played on this one."""
    return SavedGame(Game.new(), seq=previous.seq + 1)
