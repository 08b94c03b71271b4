"""The game's routes: read the intent, apply it to the game through the store, render a
fragment. Each route declares its rate limit (``webapp.traffic.budgets``) beside it."""

from flask import Blueprint, current_app, request, session
from flask.typing import ResponseReturnValue

from engine import Status, solver
from engine.solver import verdicts
from webapp.game import current, intents, play
from webapp.game.rendering import render_hint, render_page, render_state, render_update
from webapp.i18n import LANG_RULE
from webapp.traffic.budgets import game_budget, game_budget_costing, page_budget, solver_budget

bp = Blueprint("game", __name__)


@bp.get("/")
@page_budget
def index() -> str:
    """The page with the player's current game (a new one when there is none)."""
    record, lost = current.current()
    return render_page(record, lost)


@bp.get("/state")
@page_budget
def state() -> ResponseReturnValue:
    """The current game and a fresh CSRF token, for a page whose game or token the server no
    longer knows (``?game=`` names the game that page showed)."""
    record, lost = current.current()
    shown = request.args.get("game")
    moved_on = shown is not None and shown != record.id
    replaced = moved_on and shown in session.get("games", [])
    return render_state(record, lost=lost or (moved_on and not replaced), replaced=replaced)


@bp.get(f"/{LANG_RULE}/")
def index_in_language(lang: str) -> str:
    """The same page in the language the URL names (the locale selector reads the prefix).
    It draws on the page budget of ``index``, which it serves."""
    return index()


@bp.post("/move")
@game_budget_costing(lambda: intents.move_count(request.form))
def move() -> ResponseReturnValue:
    """Apply the moves pressed in a row (one or more, numbered from ``seq``), each unless its
    number was already applied (a retried request); one answer shows the board after them."""
    directions = intents.directions(request.form)
    seq = intents.seq(request.form)
    record = current.for_page(intents.game_id(request.form))
    record, played = current.change(
        record, play.moves(directions, seq, intents.retry(request.form)))
    return render_update(record, played.event, played.direction, played.points, played.steps)


@bp.post("/solver-move")
@solver_budget
def solver_move() -> ResponseReturnValue:
    """Play the solver's choice as the next move, numbered like a move (auto-play: one request
    a move); it marks the game as assisted. A game that is not being played, or a number that
    is not the next, plays nothing (a used one on a first try is refused as stale)."""
    seq = intents.seq(request.form)
    record = current.for_page(intents.game_id(request.form))
    if seq <= record.seq and not intents.retry(request.form):
        return render_update(record, "stale")
    if record.game.status != Status.PLAYING or seq != record.seq + 1:
        return render_update(record, "repeated")
    direction = solver.choose(record.game.rows, current_app.config["SOLVER_SETTING"])
    record, event = current.change(record, play.solver_move(direction, seq))
    return render_update(record, event, direction, record.game.last_points)


@bp.post("/undo")
@game_budget
def undo() -> ResponseReturnValue:
    """Take back the last move, numbered like a move (a retried undo is not applied twice)."""
    seq = intents.seq(request.form)
    record = current.for_page(intents.game_id(request.form))
    record, event = current.change(record, play.undo(seq, intents.retry(request.form)))
    return render_update(record, event)


@bp.post("/new")
@game_budget
def new_game() -> ResponseReturnValue:
    """Start a new game (under a fresh session id, as every game starts)."""
    record = current.start()
    return render_update(record, "new")


@bp.post("/keep-playing")
@game_budget
def keep_playing() -> ResponseReturnValue:
    """Close the win banner and go on with the same board."""
    record = current.for_page(intents.game_id(request.form))
    record, event = current.change(record, play.keep_playing)
    return render_update(record, event)


@bp.post("/hint")
@solver_budget
def hint() -> ResponseReturnValue:
    """The solver's value for each legal direction, and the one it recommends.
    Asking marks the game as assisted."""
    record = current.for_page(intents.game_id(request.form))
    setting = solver.SETTINGS[current_app.config["SOLVER_SETTING"]]
    values: dict[str, float] = {}
    if record.game.status == Status.PLAYING:
        values = solver.evaluate_moves(record.game.rows, setting.name)
    if values:
        record, _event = current.change(record, play.assisted)
    return render_hint(record, values, verdicts.in_points(setting))
