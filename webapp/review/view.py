"""What a review's part of its page shows, computed once from the stored review: whether it is
going on, what it found, and whether this browser may ask for it (only the game's player, for a
game with moves, when no review is going on and none covers all its moves yet)."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from webapp.game.controls import SHOWN_DIRECTIONS, ShownDirection
from webapp.i18n import markup_gettext as _
from webapp.review.analysis import Analysis
from webapp.review.chart import ReviewChart, review_chart
from webapp.review.model import FAILED, QUEUED, Review
from webapp.store.game_record import GameRecord


@dataclass(frozen=True)
class CostlyRow:
    """A costly move of the review: its number, the move played and the solver's (their
    engine names, and as shown), the share of the position's value it lost, and whether it
    `ended` the game (the last move of a game that is over)."""

    number: int
    played: str
    best: str
    played_shown: ShownDirection
    best_shown: ShownDirection
    lost: float
    ended: bool


@dataclass(frozen=True)
class ReviewView:
    """The review of a game of `total` moves. While it is `going` (queued or running), `done`
    of its `moves` are reviewed; once finished, `analysis` is its result (`partial` when it
    covers fewer moves than the game has now). `can_ask`: this browser may ask for it now;
    `busy`/`going_elsewhere`: an ask was just refused (too many waiting; another review of
    this client going on)."""

    game_id: str
    total: int
    owned: bool
    going: bool
    queued: bool
    failed: bool
    done: int
    moves: int
    progress: float
    analysis: Analysis | None
    partial: bool
    agreed: float
    costly: tuple[CostlyRow, ...]
    chart: ReviewChart | None
    can_ask: bool
    announcement: Markup
    busy: bool = False
    going_elsewhere: bool = False


def _costly_rows(analysis: Analysis, last_move: int | None) -> tuple[CostlyRow, ...]:
    """The rows of the costliest moves; `last_move`: the number of the move that ended the game
    (None while it goes on)."""
    return tuple(CostlyRow(move.number, move.played, move.best, SHOWN_DIRECTIONS[move.played],
                           SHOWN_DIRECTIONS[move.best], move.lost, move.number == last_move)
                 for move in analysis.costly)


def review_view(record: GameRecord, review: Review | None, owned: bool, busy: bool = False,
                going_elsewhere: bool = False) -> ReviewView:
    """The view of `review` (None: none stored) of the game `record`, for a browser that played
    it (`owned`) or not; a review of moves taken back since shows as none."""
    history = record.game.history
    total = len(history)
    if review is not None and not review.covers(history):
        review = None
    going = review is not None and review.active
    analysis = review.analysis if review else None
    moves = review.moves if review else 0
    done = review.done if review else 0
    if going:
        announcement = _("The review has started.")
    elif analysis:
        announcement = _("The review is finished.")
    else:
        announcement = Markup("")
    return ReviewView(
        game_id=record.id,
        total=total,
        owned=owned,
        going=going,
        queued=going and review.state == QUEUED,
        failed=review is not None and review.state == FAILED,
        done=done,
        moves=moves,
        progress=done / moves if moves else 0.0,
        analysis=analysis,
        partial=analysis is not None and moves < total,
        agreed=analysis.agreed / analysis.moves if analysis else 0.0,
        costly=_costly_rows(analysis, total if record.game.over else None) if analysis else (),
        chart=review_chart(analysis) if analysis else None,
        can_ask=owned and bool(total) and not going and (not analysis or moves < total),
        announcement=announcement,
        busy=busy,
        going_elsewhere=going_elsewhere,
    )
