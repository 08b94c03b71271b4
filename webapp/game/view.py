"""What a game's answer shows (the page, or a fragment the page swaps in), computed once from the
record: the scores, the board, the sentence a screen reader announces, the solver's hint, the
controls' key hints and the end-of-game banner's way to the records and share text. The rules
of what to say and offer live here; the templates only draw it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from flask import url_for
from flask_babel import format_date
from markupsafe import Markup

from engine import Status, Tile
from engine.solver import verdicts
from webapp.game import controls
from webapp.game.best_score import BestScores
from webapp.game.board_view import BoardView, board_view
from webapp.game.controls import SHOWN_DIRECTIONS
from webapp.game.intents import ENDPOINTS
from webapp.i18n import markup_gettext as _
from webapp.i18n import markup_ngettext, number_text
from webapp.leaderboard.entering import Placed, placed
from webapp.leaderboard.verify import play_refusal
from webapp.store.game_record import GameRecord


@dataclass(frozen=True)
class HintRow:
    """One legal direction in the hint: what the player reads of it; `tie` when it is as good
    as the solver's choice without being it."""

    direction: str
    text: Markup
    tie: bool


@dataclass(frozen=True)
class Hint:
    """The solver's choice (None when no move is possible) and every legal direction, best
    first, with the sentence that says what the rows tell (`note`)."""

    direction: str | None
    arrow: str
    suggestion: Markup | None
    note: Markup | None
    rows: tuple[HintRow, ...]


@dataclass(frozen=True)
class Shortcut:
    """A control's keys: as ``aria-keyshortcuts`` names them, and as a tooltip shows them."""

    aria: str
    shown: str


#: The key hints of the page's buttons, from the bindings (`controls.KEYS`).
SHORTCUTS: dict[str, Shortcut] = {
    intent: Shortcut(controls.aria_shortcuts(intent), controls.shown_shortcuts(intent))
    for intent in ("undo", "hint", "autoplay")
}


@dataclass(frozen=True)
class GameView:
    """One answer about a game. `gained` is what the request's moves scored together, shown
    only after moves that scored; `in_progress` says whether a new game would throw away moves
    made; `other_game` says the page now shows another game than before (its links move); `hint`
    is set only in a hint's answer; `may_enter_leaderboard` says whether the end-of-game banner
    offers the records table (`webapp.leaderboard.verify.play_refusal`), `placed` where the game
    stands in it once entered; `counts_for_leaderboard` says whether the game may still enter (no
    help used so far, never repaired, not over); `repaired`: its damaged history was repaired
    (`webapp.game.play`); `day` is a daily game's day (None for an ordinary game)."""

    game_id: str
    seq: int
    score: int
    moves: int
    best_tile: int
    gained: int
    best: BestScores
    assisted: bool
    repaired: bool
    board: BoardView
    in_progress: bool
    announcement: Markup
    message: str | None
    hint: Hint | None
    other_game: bool
    shortcuts: dict[str, Shortcut]
    may_enter_leaderboard: bool
    placed: Placed | None
    counts_for_leaderboard: bool
    day: date | None

    @property
    def status(self) -> str:
        """Where the game stands: "playing", "won" or "over"."""
        return self.board.status

    @property
    def can_start_new(self) -> bool:
        """Whether the page offers a new game in place of this one: not on a daily game."""
        return self.day is None

    @property
    def state_url(self) -> str:
        """Where the page asks for its game's current state (a daily game's own route)."""
        return url_for("daily.daily_state" if self.day else "game.state")

    @property
    def request_urls(self) -> dict[str, str]:
        """Where the page's script sends each kind of request, in the page's language."""
        return {**{intent: url_for(endpoint) for intent, endpoint in ENDPOINTS.items()},
                "state": self.state_url}

    @property
    def share_text(self) -> Markup:
        """What the Share button shares: the best tile and the score (and a daily game's day,
        written as the page's language writes a date)."""
        score = number_text(self.score)
        if self.day:
            return markup_ngettext(
                "2048, the daily game of %(day)s: best tile %(tile)s, %(score)s point",
                "2048, the daily game of %(day)s: best tile %(tile)s, %(score)s points",
                self.score, day=format_date(self.day, "long"), tile=self.best_tile, score=score)
        return markup_ngettext("2048: best tile %(tile)s, %(score)s point",
                               "2048: best tile %(tile)s, %(score)s points", self.score,
                               tile=self.best_tile, score=score)


def hint(values: dict[str, float], in_points: bool) -> Hint:
    """The hint for the solver's value of each legal direction: its choice, and what each other
    direction costs against it. Values `in_points` (the network's) are the points a player can
    expect from here, so a move costs the expected points it gives away, in whole points; the
    heuristic's values mean nothing to a player, so a move is only close to the best or risky
    (engine.solver.verdicts)."""
    given_away = verdicts.points_given_away(values)
    if not given_away:
        return Hint(None, "", None, None, ())
    best_direction, *others = given_away
    best = values[best_direction]
    rows = [HintRow(best_direction, _row(best_direction, _("best move")), False)]
    for direction in others:
        points = int(round(given_away[direction], 0))
        judged = verdicts.verdict(best, values[direction])
        tie = points == 0 if in_points else judged == verdicts.BEST
        if tie:
            verdict = _("as good as the best")
        elif in_points:
            verdict = markup_ngettext("−%(num)s point", "−%(num)s points", points,
                                      num=number_text(points))
        else:
            verdict = _("risky") if judged == verdicts.RISKY else _("close to the best")
        rows.append(HintRow(direction, _row(direction, verdict), tie))
    suggestion = _("The solver suggests: %(direction)s",
                   direction=SHOWN_DIRECTIONS[best_direction].name)
    note = (_("The expected points each other move gives away against the best:") if in_points
            else _("How each other move compares with the best:"))
    return Hint(best_direction, SHOWN_DIRECTIONS[best_direction].arrow, suggestion, note,
                tuple(rows))


def _row(direction: str, verdict: Markup) -> Markup:
    return _("%(direction)s: %(verdict)s", direction=SHOWN_DIRECTIONS[direction].name,
             verdict=verdict)


def announcement(board: BoardView, score: int, event: str, direction: str | None,
                 shown_hint: Hint | None) -> Markup:
    """The sentence a screen reader announces for this answer (empty when there is none), the
    score written as the page writes it."""
    name = SHOWN_DIRECTIONS[direction].name if direction else None
    if board.status == Status.WON:
        return _("You made 2048! Keep playing or start a new game.")
    if board.status == Status.OVER:
        return _("Game over. Final score: %(score)s.", score=number_text(score))
    sentences = {
        "moved": lambda: _("Moved %(direction)s. Score: %(score)s.", direction=name,
                           score=number_text(score)),
        "blocked": lambda: _("Nothing moves %(direction)s.", direction=name),
        "undone": lambda: _("Move taken back. Score: %(score)s.", score=number_text(score)),
        "nothing-to-undo": lambda: _("There is no move to take back."),
        "new": lambda: _("New game started."),
        "hinted": lambda: (shown_hint and shown_hint.suggestion) or _("No move is possible."),
    }
    return sentences[event]() if event in sentences else Markup("")


def game_view(
    record: GameRecord,
    event: str,
    best: BestScores,
    day: date | None,
    direction: str | None = None,
    points: int = 0,
    values: dict[str, float] | None = None,
    message: str | None = None,
    in_points: bool = False,
    steps: Sequence[tuple[str, Iterable[Tile]]] = (),
) -> GameView:
    """The view of `record`, a game of `day` (None for an ordinary game), after `event` (loaded,
    moved, blocked, undone, nothing-to-undo, new, kept-playing, repeated, stale, hinted,
    repaired; `direction`: the last move's, `points`: what the moves scored together; the
    solver's `values` for a hint, `in_points` if they are points; `steps`: each move of a
    request of several)."""
    game = record.game
    board = board_view(game, playable=True, steps=steps)
    shown_hint = hint(values, in_points) if values is not None else None
    score = game.score
    # Only a finished game is asked: any other is refused, and a refusal costs a translation.
    may_enter = board.status == Status.OVER and play_refusal(record) is None
    entered = placed(record.id) if may_enter else None
    return GameView(
        game_id=record.id,
        seq=record.seq,
        score=score,
        moves=game.moves,
        best_tile=game.best_tile,
        gained=points if event == "moved" else 0,
        best=best,
        assisted=record.assisted,
        repaired=record.repaired,
        board=board,
        in_progress=bool(game.moves) and board.status != Status.OVER,
        announcement=announcement(board, score, event, direction, shown_hint),
        message=message,
        hint=shown_hint,
        other_game=event in ("new", "loaded"),
        shortcuts=SHORTCUTS,
        may_enter_leaderboard=may_enter and entered is None,
        placed=entered,
        counts_for_leaderboard=record.played_alone and board.status != Status.OVER,
        day=day,
    )
