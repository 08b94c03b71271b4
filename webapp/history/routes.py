"""The history's routes: a game's replay and its review, which anyone with the link may read
(plain GETs that store nothing and set no cookie), and the list of this browser's games. Only
the browser that played a game may ask for its review, and read a daily game's before its day
is over. Each route declares its budget."""

from __future__ import annotations

from datetime import datetime, timezone

from flask import (Blueprint, Flask, Response, abort, current_app, redirect, render_template,
                   request, url_for)
from flask.typing import ResponseReturnValue

from webapp.daily import days
from webapp.game.current import owned, session_games
from webapp.history import replay, reviews
from webapp.history.best_tile_chart import best_tile_chart
from webapp.history.review_queue import review_queue
from webapp.history.reviewer import Reviewer, ReviewerBusy, ReviewGoing, watch
from webapp.traffic.budgets import client_address, history_budget, review_budget, session_key
from webapp.store import games, record_table
from webapp.store.records import GameRecord, is_game_id
from webapp.views.review import ReviewView, review_view

bp = Blueprint("history", __name__)
#: Reads depend on the language (cookie or Accept-Language) and, for the owner, the session.
VARY = ("Cookie", "Accept-Language")
NO_STORE = {"Cache-Control": "no-store"}
BUSY_RETRY_SECONDS = 30


@bp.app_template_filter("as_datetime")
def as_datetime(timestamp: float) -> datetime:
    """A stored time (Unix seconds) as the datetime the date filters format."""
    return datetime.fromtimestamp(timestamp, timezone.utc)


def init_history(app: Flask) -> None:
    """Give the app its reviewer, whose reviews the process's review thread runs from the first
    request on (so that each worker also takes up the reviews another one lost)."""
    games = app.extensions["games"]
    reviewer = app.extensions["reviewer"] = Reviewer(games, review_queue(games))
    app.before_request(lambda: watch(reviewer))


def _record(game_id: str) -> GameRecord:
    """The game the URL names; for a game in the records table, the copy its entry keeps, so
    that the table's link shows the game as entered even after its player took a move back or
    it left the store. 404 for an id that names neither; for a daily game of a day not over
    yet, asked for by anyone but its player, a 403 page saying when its replay opens."""
    record = None
    if is_game_id(game_id):
        record = record_table().game(game_id) or games().get(game_id)
    if record is None:
        abort(404)
    if days.secret(record) and not owned(game_id):
        day = days.day_of(record)
        opens = datetime.fromtimestamp(days.day_end(day), timezone.utc)
        abort(_answer(render_template("history/not_yet.html", day=day, opens=opens), 403))
    return record


def _answer(body: str, status: int = 200, *headers: dict[str, str]) -> Response:
    """The answer to a read, which varies with the reader's language and session."""
    response = current_app.make_response((body, status))
    response.vary.update(VARY)
    for extra in headers:
        response.headers.update(extra)
    return response


@bp.get("/games/<game_id>")
@history_budget
def replay_page(game_id: str) -> ResponseReturnValue:
    """The game move by move; ``?move=N`` opens the board after N moves (none: the latest)."""
    record = _record(game_id)
    total = len(record.game.history)
    shown = replay.position(record, replay.move_number(request.args.get("move"), total),
                            review=_review_of(record))
    return _answer(render_template("history/replay.html", summary=record.summary(),
                                   position=shown, keys=replay.KEYS,
                                   shortcuts=replay.SHORTCUTS))


@bp.get("/games/<game_id>/position")
@history_budget
def position(game_id: str) -> ResponseReturnValue:
    """The fragment of one step of the replay; ``from`` is the position the page shows, so a
    step forward animates as in play."""
    record = _record(game_id)
    total = len(record.game.history)
    move = replay.move_number(request.args.get("move", ""), total)
    raw_from = request.args.get("from", "")
    shown = replay.move_number(raw_from, total) if raw_from else None
    body = render_template("history/position.html",
                           position=replay.position(record, move, shown, _review_of(record)))
    return _answer(body)


def _review_of(record: GameRecord) -> reviews.Review | None:
    """The game's stored review, if it has one."""
    return reviews.read(games().review(record.id))


def _stored_review(record: GameRecord) -> ReviewView:
    """The view of the game's stored review, for this browser."""
    return review_view(record, _review_of(record), owned(record.id))


@bp.get("/games/<game_id>/review")
@history_budget
def review_page(game_id: str) -> ResponseReturnValue:
    """The solver's review of the game, its progress while it runs."""
    record = _record(game_id)
    return _answer(render_template("history/review.html", summary=record.summary(),
                                   review=_stored_review(record)))


@bp.get("/games/<game_id>/review/progress")
@history_budget
def review_progress(game_id: str) -> ResponseReturnValue:
    """The review's part of the page as it is now, for the page to poll."""
    record = _record(game_id)
    body = render_template("history/review_part.html", review=_stored_review(record))
    return _answer(body, 200, NO_STORE)


@bp.post("/games/<game_id>/review")
@review_budget
def ask_review(game_id: str) -> ResponseReturnValue:
    """Ask for the game's review (of all its moves so far): the review's part of the page for
    the page's script; the review page itself for a form sent without script (a navigation)."""
    record = _record(game_id)
    if not owned(game_id) or not len(record.game.history):
        abort(403)
    navigated = request.headers.get("Sec-Fetch-Mode") == "navigate"
    template = "history/review.html" if navigated else "history/review_part.html"
    stored = reviews.read(games().review(record.id))
    try:
        asked = current_app.extensions["reviewer"].ask(record, client_address(), session_key())
    except (ReviewerBusy, ReviewGoing) as refused:
        busy = isinstance(refused, ReviewerBusy)
        view = review_view(record, stored, owned=True, busy=busy, going_elsewhere=not busy)
        body = render_template(template, summary=record.summary(), review=view)
        return body, 503 if busy else 429, {"Retry-After": str(BUSY_RETRY_SECONDS), **NO_STORE}
    if navigated:  # after a form, the page's own address, so that reloading it asks nothing
        return redirect(url_for("history.review_page", game_id=game_id), 303)
    view = review_view(record, asked, owned=True)
    return render_template(template, summary=record.summary(), review=view), 200, NO_STORE


@bp.get("/games")
@history_budget
def game_list() -> ResponseReturnValue:
    """This browser's played games, newest first, with a chart of their best tiles."""
    played = sorted((game for game in games().summaries(session_games()) if game.played),
                    key=lambda game: game.last_played, reverse=True)
    chart = best_tile_chart(played[::-1]) if played else None
    return _answer(render_template("history/games.html", games=played, chart=chart))

