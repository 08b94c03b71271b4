"""The records table's routes: the all-time table, a day's table, and entering a game (a form
page, then ``POST /records``). Each route declares its budget."""

from __future__ import annotations

from datetime import date, timedelta

from flask import Blueprint, abort, redirect, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from webapp import days
from webapp.leaderboard import entering, leaderboard_table
from webapp.leaderboard.names import MAX_LENGTH
from webapp.store.game_record import GameRecord
from webapp.store.sessions import renew_id
from webapp.traffic.budgets import history_budget, leaderboard_budget

#: Named "records" as its URLs are: the endpoints (and the budget counters keyed by them) keep
#: their names.
bp = Blueprint("records", __name__)


@bp.get("/records")
@history_budget
def all_time() -> str:
    """The all-time table: the top entries."""
    return render_template("leaderboard/table.html", entries=leaderboard_table().top(), day=None,
                           today=days.today(), earlier=None, later=None)


@bp.get("/records/daily")
@history_budget
def daily() -> str:
    """The table of one day's daily games: ``?day=YYYY-MM-DD``, today's by default."""
    today = days.today()
    day = _day(request.args.get("day"), today)
    entries = leaderboard_table().top(day.isoformat())
    return render_template("leaderboard/table.html", entries=entries, day=day, today=today,
                           earlier=day - timedelta(days=1),
                           later=day + timedelta(days=1) if day < today else None)


def _day(raw: str | None, today: date) -> date:
    """The day a query names; the 404 page for anything but a date up to today."""
    if raw is None:
        return today
    try:
        day = date.fromisoformat(raw) if len(raw) == 10 else None
    except ValueError:
        day = None
    if day is None or day > today:
        abort(404)
    return day


@bp.get("/records/enter")
@history_budget
def enter_form() -> ResponseReturnValue:
    """The form that enters this browser's game ``?game=`` (or why it cannot enter)."""
    record = entering.own_game(request.args.get("game"))
    refused = entering.refusal(record)
    return _form(record, refused), refused.code if refused else 200


@bp.post("/records")
@leaderboard_budget
def enter() -> ResponseReturnValue:
    """Enter the game the form names under its name, then show the table it entered. The
    session takes a fresh id (`renew_id`), as where a game begins."""
    record = entering.own_game(request.form.get("game"))
    try:
        entered = entering.enter(record, request.form.get("name"))
    except HTTPException as refused:
        return _form(record, refused, request.form.get("name", "")), refused.code
    renew_id()
    return redirect(entered.url, 303)


def _form(record: GameRecord, refused: HTTPException | None, name: str = "") -> str:
    """The form page for `record`: its facts, why it was `refused` if it was, and the form
    itself unless the game cannot enter (a refused name, 400, may be tried again)."""
    return render_template("leaderboard/enter.html", summary=record.summary(),
                           day=days.day_of(record), refused=refused,
                           show_form=refused is None or refused.code == 400, name=name,
                           max_length=MAX_LENGTH,
                           placed=(entering.placed(record.id)
                                   if isinstance(refused, entering.AlreadyEntered) else None))
