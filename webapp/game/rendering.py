"""Turning a game record into the page or the fragment the page swaps in."""

from flask import render_template, request
from flask_babel import format_decimal, gettext, lazy_gettext
from flask_wtf.csrf import generate_csrf

from webapp.daily import days
from webapp.game import controls
from webapp.game.best_score import best_scores
from webapp.store.records import GameRecord

#: Headers every game answer carries: the game the page now shows and its last move number.
GAME_HEADER, SEQ_HEADER, TOKEN_HEADER = "X-Game", "X-Seq", "X-CSRF-Token"

LOST = lazy_gettext("Your previous game is no longer on the server, so a new one has started.")
REPLACED = lazy_gettext("This game was replaced by a new one in another tab.")


def game_context(record: GameRecord, event: str, direction: str | None = None,
                 points: int = 0) -> dict:
    """Everything the game templates show. ``event`` names what just happened
    (loaded, moved, blocked, undone, nothing-to-undo, new, kept-playing, repeated,
    hinted, repaired); ``points``, what the moves of the request scored."""
    game = record.game
    return {
        "record": record,
        "game": game,
        "seq": record.seq,
        "assisted": record.assisted,
        "best": best_scores(request, game.score, record.assisted),
        "event": event,
        "direction": direction,
        "points": points,
        "day": days.day_of(record),  # a daily game's day, None for an ordinary game
    }


def _headers(record: GameRecord) -> dict[str, str]:
    return {GAME_HEADER: record.id, SEQ_HEADER: str(record.seq)}


def render_page(record: GameRecord, lost: bool = False) -> str:
    """The whole game page (saying so when the browser's previous game was lost)."""
    return render_template(
        "game.html", controls=controls.client_data(), message=LOST if lost else None,
        **game_context(record, "loaded"),
    )


def render_update(
    record: GameRecord, event: str, direction: str | None = None, points: int = 0
) -> tuple[str, dict[str, str]]:
    """The fragment answering moves, an undo, a new game or keep playing (``direction``: the
    last move's, ``points``: what the moves scored together); its headers tell the page which
    game it shows and the last applied move number, which it counts on from."""
    message = repaired_message(record) if event == "repaired" else None
    body = render_template("partials/update.html", message=message,
                           **game_context(record, event, direction, points))
    return body, _headers(record)


def repaired_message(record: GameRecord) -> str:
    """What the player reads when a damaged game went back to the last point that checks out."""
    return gettext("This game's saved record was damaged, so it goes on from move %(move)s, "
                   "the last point that checks out.", move=format_decimal(record.game.moves))


def render_state(record: GameRecord, lost: bool, replaced: bool) -> tuple[str, dict[str, str]]:
    """The fragment that resets a page to the current game, with a fresh CSRF token."""
    message = LOST if lost else REPLACED if replaced else None
    body = render_template("partials/update.html", message=message,
                           **game_context(record, "loaded"))
    return body, {**_headers(record), TOKEN_HEADER: generate_csrf(), "Cache-Control": "no-store"}


def render_hint(record: GameRecord, values: dict[str, float]) -> tuple[str, dict[str, str]]:
    """The fragment showing the solver's choice and, for each other legal direction, how far
    its value falls behind (raw values carry a large offset and mean little to a player)."""
    ranked = sorted(values.items(), key=lambda item: item[1], reverse=True)
    best = ranked[0][1] if ranked else 0.0
    body = render_template(
        "partials/hint.html",
        recommended=ranked[0][0] if ranked else None,
        ranked=[(name, best - value) for name, value in ranked],
        **game_context(record, "hinted"),
    )
    return body, _headers(record)
