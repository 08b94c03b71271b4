"""The game's routes: read the intent, ask the engine, store the game, render a fragment."""

from flask import Blueprint, request
from flask.typing import ResponseReturnValue

from . import game_store, intents
from .rendering import render_page, render_update

bp = Blueprint("game", __name__)


@bp.get("/")
def index() -> str:
    """The page with the player's current game (a new one when there is none)."""
    saved = game_store.load()
    game_store.save(saved)
    return render_page(saved)


@bp.post("/move")
def move() -> ResponseReturnValue:
    """Apply one move, unless this move number was already applied (a retried request)."""
    direction = intents.direction(request.form)
    seq = intents.seq(request.form)
    saved = game_store.load()
    if seq <= saved.seq:
        return render_update(saved, "repeated")
    moved = saved.game.move(direction)
    saved.seq = seq
    game_store.save(saved)
    return render_update(saved, "moved" if moved else "blocked", direction)


@bp.post("/new")
def new_game() -> ResponseReturnValue:
    """Replace the current game with a new one."""
    saved = game_store.start_new(game_store.load())
    game_store.save(saved)
    return render_update(saved, "new")


@bp.post("/keep-playing")
def keep_playing() -> ResponseReturnValue:
    """Close the win banner and go on with the same board."""
    saved = game_store.load()
    saved.game.keep_playing()
    game_store.save(saved)
    return render_update(saved, "kept-playing")
