"""The solver in the game: a hint route (rate-limited per session by ``limits``), and the
start-up warm-up."""

from flask import Blueprint, Flask, current_app
from flask.typing import ResponseReturnValue

from engine import solver

from . import game_store
from .rendering import render_hint

bp = Blueprint("hints", __name__)


@bp.post("/hint")
def hint() -> ResponseReturnValue:
    """The solver's value for each legal direction, and the one it recommends.
    Asking marks the game as assisted."""
    saved = game_store.load()
    values: dict[str, float] = {}
    if not (saved.game.over or saved.game.awaiting_choice):
        values = solver.evaluate_moves(saved.game.rows, current_app.config["SOLVER_SETTING"])
    if values:
        saved.assisted = True
        game_store.save(saved)
    return render_hint(saved, values)


def init_hints(app: Flask) -> None:
    """Register the hint route, and warm the solver up if asked."""
    app.register_blueprint(bp)
    if app.config["SOLVER_WARM_UP"]:
        solver.warm_up()
