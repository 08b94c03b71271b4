"""The game's routes: read the intent, ask the engine, store the game, render a fragment.
Each route declares its rate limit (``webapp.limits``) beside it."""

from flask import Blueprint, current_app, request
from flask.typing import ResponseReturnValue

from engine import Status, solver
from webapp.game import intents, stored_game
from webapp.game.controls import SHOWN_DIRECTIONS
from webapp.game.rendering import render_hint, render_page, render_update
from webapp.limits import game_budget, page_budget, solver_budget

bp = Blueprint("game", __name__)
bp.add_app_template_global(SHOWN_DIRECTIONS, "directions")


@bp.get("/")
@page_budget
def index() -> str:
    """The page with the player's current game (a new one when there is none)."""
    stored = stored_game.load()
    stored_game.save(stored)
    return render_page(stored)


@bp.post("/move")
@game_budget
def move() -> ResponseReturnValue:
    """Apply one move, unless this move number was already applied (a retried request)."""
    direction = intents.direction(request.form)
    seq = intents.seq(request.form)
    stored = stored_game.load()
    if seq <= stored.seq:
        return render_update(stored, "repeated")
    moved = stored.game.move(direction)
    stored.seq = seq
    stored_game.save(stored)
    return render_update(stored, "moved" if moved else "blocked", direction)


@bp.post("/new")
@game_budget
def new_game() -> ResponseReturnValue:
    """Replace the current game with a new one."""
    stored = stored_game.start_new(stored_game.load())
    stored_game.save(stored)
    return render_update(stored, "new")


@bp.post("/keep-playing")
@game_budget
def keep_playing() -> ResponseReturnValue:
    """Close the win banner and go on with the same board."""
    stored = stored_game.load()
    stored.game.keep_playing()
    stored_game.save(stored)
    return render_update(stored, "kept-playing")


@bp.post("/hint")
@solver_budget
def hint() -> ResponseReturnValue:
    """The solver's value for each legal direction, and the one it recommends.
    Asking marks the game as assisted."""
    stored = stored_game.load()
    values: dict[str, float] = {}
    if stored.game.status == Status.PLAYING:
        values = solver.evaluate_moves(stored.game.rows, current_app.config["SOLVER_SETTING"])
    if values:
        stored.assisted = True
        stored_game.save(stored)
    return render_hint(stored, values)
