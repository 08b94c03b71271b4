"""Turning a game record into the page or the fragment the page swaps in, each drawn from one
view (`webapp.game.view`), and the headers that tell the page's script where the game stands."""

from collections.abc import Sequence

from flask import render_template, request
from flask_wtf.csrf import generate_csrf

from webapp import days
from webapp.errors import BEHIND, GAVE_UP, UNREACHABLE
from webapp.game import controls
from webapp.game.best_score import best_scores
from webapp.game.play import Step
from webapp.game.view import GameView, game_view
from webapp.i18n import lazy_gettext, number_text
from webapp.i18n import translate as _
from webapp.store.game_record import GameRecord

#: Headers every game answer carries: the game the page now shows, its last move number, where
#: it stands ("playing", "won", "over") and whether a new game would throw moves away.
GAME_HEADER, SEQ_HEADER, STATUS_HEADER, IN_PROGRESS_HEADER = (
    "X-Game", "X-Seq", "X-Status", "X-In-Progress")
#: The solver's choice, on a hint's answer that has one.
HINT_HEADER = "X-Hint"
TOKEN_HEADER = "X-CSRF-Token"

LOST = lazy_gettext("Your previous game is no longer on the server, so a new one has started.")
STALE = lazy_gettext("This game had moved on in another tab, so what you just pressed was not "
                     "played. Here it is as it stands now.")
REPLACED = lazy_gettext("This game was replaced by a new one in another tab.")


def view_of(record: GameRecord, event: str, direction: str | None = None, points: int = 0,
            values: dict[str, float] | None = None, message: str | None = None,
            in_points: bool = False, steps: Sequence[Step] = ()) -> GameView:
    """The answer's view, with the best scores the browser remembers for games of its kind (the
    day, read once here, says which)."""
    day = days.day_of(record)
    best = best_scores(request, record.game.score, record.assisted, daily=day is not None)
    return game_view(record, event, best, day, direction, points, values, message, in_points,
                     steps)


def _headers(view: GameView) -> dict[str, str]:
    headers = {GAME_HEADER: view.game_id, SEQ_HEADER: str(view.seq), STATUS_HEADER: view.status,
               IN_PROGRESS_HEADER: "true" if view.in_progress else "false"}
    if view.hint and view.hint.direction:
        headers[HINT_HEADER] = view.hint.direction
    return headers


def _fragment(template: str, view: GameView) -> str:
    return render_template(template, view=view, message=view.message)


def render_page(record: GameRecord, lost: bool = False) -> str:
    """The whole game page (saying so when the browser's previous game was lost), with the
    messages its script shows when the server cannot be reached, keeps failing or lost moves."""
    view = view_of(record, "loaded", message=LOST if lost else None)
    return render_template("game.html", controls=controls.client_data(view.day is not None),
                           view=view, message=view.message, unreachable_message=UNREACHABLE,
                           gave_up_message=GAVE_UP, behind_message=BEHIND)


def render_update(
    record: GameRecord, event: str, direction: str | None = None, points: int = 0,
    steps: Sequence[Step] = (),
) -> tuple[str, int, dict[str, str]]:
    """The fragment answering moves, an undo, a new game or keep playing (``direction``: the
    last move's, ``points``: what the moves scored together, ``steps``: each move of several);
    its headers tell the page which game it shows, the last applied move number, which it
    counts on from, and where the game stands. Presses refused as stale are a 409 saying so."""
    message = (repaired_message(record) if event == "repaired"
               else STALE if event == "stale" else None)
    view = view_of(record, event, direction, points, message=message, steps=steps)
    status = 409 if event == "stale" else 200
    return _fragment("partials/update.html", view), status, _headers(view)


def repaired_message(record: GameRecord) -> str:
    """What the player reads when a damaged game went back to the last point that checks out."""
    return _("This game's saved record was damaged, so it goes on from move %(move)s, "
             "the last point that checks out.", move=number_text(record.game.moves))


def render_state(record: GameRecord, lost: bool, replaced: bool) -> tuple[str, dict[str, str]]:
    """The fragment that resets a page to the current game, with a fresh CSRF token."""
    view = view_of(record, "loaded", message=LOST if lost else REPLACED if replaced else None)
    headers = {**_headers(view), TOKEN_HEADER: generate_csrf(), "Cache-Control": "no-store"}
    return _fragment("partials/update.html", view), headers


def render_hint(record: GameRecord, values: dict[str, float], in_points: bool
                ) -> tuple[str, dict[str, str]]:
    """The fragment showing the solver's choice and, for each other legal direction, what it
    costs against it (expected points when the `values` are points)."""
    view = view_of(record, "hinted", values=values, in_points=in_points)
    return _fragment("partials/hint.html", view), _headers(view)
