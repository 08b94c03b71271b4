"""The review's routes: its page and its part of the page, which the page polls while the review
runs (anyone with the game's link may read them), and asking for it, which only the browser that
played the game may do. Each route declares its budget."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from webapp.links import NO_STORE, linked_game, read_answer
from webapp.review import review_worker
from webapp.review.view import ReviewView, review_view
from webapp.review.worker import ReviewerBusy, ReviewGoing
from webapp.store.game_record import GameRecord
from webapp.store.sessions import owned
from webapp.traffic.budgets import client_address, history_budget, review_budget, session_key

bp = Blueprint("review", __name__)
BUSY_RETRY_SECONDS = 30


def _stored_review(record: GameRecord) -> ReviewView:
    """The view of the game's stored review, for this browser."""
    return review_view(record, review_worker().stored(record.id), owned(record.id))


@bp.get("/games/<game_id>/review")
@history_budget
def review_page(game_id: str) -> ResponseReturnValue:
    """The solver's review of the game, its progress while it runs."""
    record = linked_game(game_id)
    return read_answer(render_template("review/page.html", summary=record.summary(),
                                       review=_stored_review(record)))


@bp.get("/games/<game_id>/review/progress")
@history_budget
def review_progress(game_id: str) -> ResponseReturnValue:
    """The review's part of the page as it is now, for the page to poll."""
    record = linked_game(game_id)
    body = render_template("review/part.html", review=_stored_review(record))
    return read_answer(body, 200, NO_STORE)


@bp.post("/games/<game_id>/review")
@review_budget
def ask_review(game_id: str) -> ResponseReturnValue:
    """Ask for the game's review (of all its moves so far): the review's part of the page for
    the page's script; the review page itself for a form sent without script (a navigation)."""
    record = linked_game(game_id)
    if not owned(game_id) or not len(record.game.history):
        abort(403)
    navigated = request.headers.get("Sec-Fetch-Mode") == "navigate"
    template = "review/page.html" if navigated else "review/part.html"
    worker = review_worker()
    stored = worker.stored(record.id)
    try:
        asked = worker.ask(record, client_address(), session_key())
    except (ReviewerBusy, ReviewGoing) as refused:
        busy = isinstance(refused, ReviewerBusy)
        view = review_view(record, stored, owned=True, busy=busy, going_elsewhere=not busy)
        body = render_template(template, summary=record.summary(), review=view)
        return body, 503 if busy else 429, {"Retry-After": str(BUSY_RETRY_SECONDS), **NO_STORE}
    if navigated:  # after a form, the page's own address, so that reloading it asks nothing
        return redirect(url_for("review.review_page", game_id=game_id), 303)
    view = review_view(record, asked, owned=True)
    return render_template(template, summary=record.summary(), review=view), 200, NO_STORE
