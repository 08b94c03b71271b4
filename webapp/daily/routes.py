"""The daily game's routes: its page and its state. Moves, undo, hints and keep playing go
through the game's own routes, which take the daily game as the page's game (``game`` names
it)."""

from flask import Blueprint, request
from flask.typing import ResponseReturnValue

from webapp.daily.current import daily_game
from webapp.game.rendering import render_page, render_state
from webapp.traffic.budgets import page_budget

bp = Blueprint("daily", __name__)


@bp.get("/daily")
@page_budget
def daily_page() -> str:
    """Today's game of this browser (a new one on its first visit of the day)."""
    record, lost = daily_game()
    return render_page(record, lost)


@bp.get("/daily/state")
@page_budget
def daily_state() -> ResponseReturnValue:
    """Today's game and a fresh CSRF token, for a daily page whose game or token the server no
    longer knows (a page left open past midnight gets the new day's game)."""
    record, lost = daily_game()
    moved_on = request.args.get("game") not in (None, record.id)
    return render_state(record, lost=lost or moved_on, replaced=False)
