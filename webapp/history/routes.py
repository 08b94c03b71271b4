"""The history's routes: a game's replay, which anyone with the link may read (plain GETs that
store nothing and set no cookie; `webapp.links`), and the list of this browser's games. Each
route declares its budget."""

from __future__ import annotations

from datetime import datetime, timezone

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from webapp.history import replay
from webapp.history.best_tile_chart import best_tile_chart
from webapp.links import linked_game, read_answer
from webapp.review import review_worker
from webapp.store import games
from webapp.store.sessions import session_games
from webapp.traffic.budgets import history_budget

bp = Blueprint("history", __name__)


@bp.app_template_filter("as_datetime")
def as_datetime(timestamp: float) -> datetime:
    """A stored time (Unix seconds) as the datetime the date filters format."""
    return datetime.fromtimestamp(timestamp, timezone.utc)


@bp.get("/games/<game_id>")
@history_budget
def replay_page(game_id: str) -> ResponseReturnValue:
    """The game move by move; ``?move=N`` opens the board after N moves (none: the latest)."""
    record = linked_game(game_id)
    total = len(record.game.history)
    shown = replay.position(record, replay.move_number(request.args.get("move"), total),
                            review=review_worker().stored(record.id))
    return read_answer(render_template("history/replay.html", summary=record.summary(),
                                       position=shown, keys=replay.KEYS,
                                       shortcuts=replay.SHORTCUTS))


@bp.get("/games/<game_id>/position")
@history_budget
def position(game_id: str) -> ResponseReturnValue:
    """The fragment of one step of the replay; ``from`` is the position the page shows, so a
    step forward animates as in play."""
    record = linked_game(game_id)
    total = len(record.game.history)
    move = replay.move_number(request.args.get("move", ""), total)
    raw_from = request.args.get("from", "")
    shown = replay.move_number(raw_from, total) if raw_from else None
    body = render_template("history/position.html", position=replay.position(
        record, move, shown, review_worker().stored(record.id)))
    return read_answer(body)


@bp.get("/games")
@history_budget
def game_list() -> ResponseReturnValue:
    """This browser's played games, newest first, with a chart of their best tiles."""
    played = sorted((game for game in games().summaries(session_games()) if game.played),
                    key=lambda game: game.last_played, reverse=True)
    chart = best_tile_chart(played[::-1]) if played else None
    return read_answer(render_template("history/games.html", games=played, chart=chart))
