"""A game by its link (``/games/<id>``): its replay and its review, which anyone with the link may
read, as plain GETs that store nothing and set no cookie. A daily game of a day not over yet is
its player's only (its tiles are the day's secret): anyone else is told when it opens. Shared by
`webapp.history` and `webapp.review`."""

from __future__ import annotations

from datetime import datetime, timezone

from flask import Response, abort, current_app, render_template

from webapp import days
from webapp.leaderboard import leaderboard_table
from webapp.store import games
from webapp.store.game_record import GameRecord, is_game_id
from webapp.store.sessions import owned

#: Reads depend on the language (cookie or Accept-Language) and, for the owner, the session.
VARY = ("Cookie", "Accept-Language")
NO_STORE = {"Cache-Control": "no-store"}


def linked_game(game_id: str) -> GameRecord:
    """The game the URL names; for a game in the records table, the copy its entry keeps, so
    that the table's link shows the game as entered even after its player took a move back or
    it left the store. 404 for an id that names neither; for a daily game of a day not over
    yet, asked for by anyone but its player, a 403 page saying when its replay opens."""
    record = None
    if is_game_id(game_id):
        record = leaderboard_table().game(game_id) or games().get(game_id)
    if record is None:
        abort(404)
    if days.secret(record) and not owned(game_id):
        day = days.day_of(record)
        opens = datetime.fromtimestamp(days.day_end(day), timezone.utc)
        abort(read_answer(render_template("history/not_yet.html", day=day, opens=opens), 403))
    return record


def read_answer(body: str, status: int = 200, *headers: dict[str, str]) -> Response:
    """The answer to a read, which varies with the reader's language and session."""
    response = current_app.make_response((body, status))
    response.vary.update(VARY)
    for extra in headers:
        response.headers.update(extra)
    return response
