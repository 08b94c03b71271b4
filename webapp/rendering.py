"""Turning a saved game into the page or the fragment the page swaps in."""

from flask import render_template, request

from . import controls
from .best_score import best_scores
from .game_store import SavedGame

SEQ_HEADER = "X-Seq"


def game_context(saved: SavedGame, event: str, direction: str | None = None) -> dict:
    """Everything the game templates show. ``event`` names what just happened
    (loaded, moved, blocked, new, kept-playing, repeated)."""
    game = saved.game
    return {
        "game": game,
        "seq": saved.seq,
        "assisted": saved.assisted,
        "best": best_scores(request, game.score, saved.assisted),
        "event": event,
        "direction_name": controls.DIRECTION_NAMES.get(direction or ""),
    }


def render_page(saved: SavedGame) -> str:
    """The whole game page."""
    return render_template(
        "game.html", controls=controls.client_data(), **game_context(saved, "loaded")
    )


def render_update(
    saved: SavedGame, event: str, direction: str | None = None
) -> tuple[str, dict[str, str]]:
    """The fragment answering a move, a new game or keep playing. The ``X-Seq`` header tells the
    page the last applied move number, so it keeps counting from the server's."""
    body = render_template("partials/update.html", **game_context(saved, event, direction))
    return body, {SEQ_HEADER: str(saved.seq)}


def render_hint(saved: SavedGame, values: dict[str, float]) -> str:
    """The fragment showing the solver's choice and, for each other legal direction, how far
    its value falls behind (raw values carry a large offset and mean little to a player)."""
    ranked = sorted(values.items(), key=lambda item: item[1], reverse=True)
    best = ranked[0][1] if ranked else 0.0
    return render_template(
        "partials/hint.html",
        recommended=ranked[0][0] if ranked else None,
        ranked=[(controls.DIRECTION_NAMES[name], name, best - value) for name, value in ranked],
        **game_context(saved, "hinted"),
    )
