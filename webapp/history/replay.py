"""A position of a game's replay: the game after some of its moves, as its page draws it.

A damaged record (a history that no longer replays to its game) is replayed up to the last
point of its history that checks out (`Game.sound_part`), and the position says so. Where the
game's finished review lists the move played from a position among the costliest, the position
carries the move the solver preferred and what the one played gave away."""

from __future__ import annotations

from dataclasses import dataclass

from werkzeug.exceptions import NotFound

from engine import DamagedHistory, Game
from webapp.game.board_view import BoardView, board_view
from webapp.game.controls import SHOWN_DIRECTIONS, ShownDirection
from webapp.review.analysis import Analysis
from webapp.review.model import Review
from webapp.store.game_record import GameRecord

MAX_MOVE_DIGITS = 7
#: The replay's keys (``KeyboardEvent.code``) -> the step they take; the page's script reads them.
KEYS: dict[str, str] = {"ArrowLeft": "previous", "ArrowRight": "next", "Home": "first",
                        "End": "last"}
#: Each step's key, as its button's ``aria-keyshortcuts`` names it.
SHORTCUTS: dict[str, str] = {step: code for code, step in KEYS.items()}


@dataclass(frozen=True)
class BetterMove:
    """The move the review preferred to the one played: `direction` (the engine's name) as
    `shown`; what the one played gave away, as the `lost` share of the position's value."""

    direction: str
    shown: ShownDirection
    lost: float


@dataclass(frozen=True)
class Position:
    """The game after `move` of its `total` moves, as drawn (`board`, `score`); `next_move` is
    the move played from here, as shown (None at the end). `unreplayable`: the move asked for,
    when the damaged history could not be replayed to it (the position is then its last point
    that checks out)."""

    board: BoardView
    score: int
    move: int
    total: int
    next_move: ShownDirection | None
    unreplayable: int | None = None
    reviewed: bool = False
    better: BetterMove | None = None


def move_number(raw: str | None, total: int) -> int:
    """The position a ``move`` query names: none is the latest, a number past the end is the
    end; NotFound for anything but a plain number."""
    if raw is None:
        return total
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_MOVE_DIGITS):
        raise NotFound()
    return min(int(raw), total)


def position(record: GameRecord, move: int, shown: int | None = None,
             review: Review | None = None) -> Position:
    """The game after `move` moves. Its tiles slide and appear as in play when the page shows
    the position just before (`shown` is `move - 1`); otherwise they are drawn in place.
    `review`: the game's stored review, if any."""
    history = record.game.history
    unreplayable = None
    try:
        game = record.game.replayed(move)
    except DamagedHistory:
        game, unreplayable = record.game.sound_part(), move
        move = len(game.history)
    if shown != move - 1 or unreplayable is not None:
        game = Game.from_saved(game.to_saved())  # a loaded game: no last move to animate
    directions = history.directions()
    next_move = SHOWN_DIRECTIONS[directions[move]] if move < len(directions) else None
    # A finished review of these moves (not of moves taken back since).
    analysis = review.analysis if review is not None and review.covers(history) else None
    better = _better_move(analysis, move + 1) if analysis and unreplayable is None else None
    return Position(board_view(game), game.score, move, len(directions), next_move, unreplayable,
                    analysis is not None, better)


def _better_move(analysis: Analysis, number: int) -> BetterMove | None:
    """The move preferred to move `number`, if the review lists that move among the costliest."""
    for costly in analysis.costly:
        if costly.number == number:
            return BetterMove(costly.best, SHOWN_DIRECTIONS[costly.best], costly.lost)
    return None
