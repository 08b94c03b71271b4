"""Turning a stored game into the page or the fragment the page swaps in."""

from flask import render_template, request

from webapp.game import controls
from webapp.game.best_score import best_scores
from webapp.game.stored_game import StoredGame

SEQ_HEADER = "X-Seq"


def game_context(stored: StoredGame, event: str, direction: str | None = None) -> dict:
    """Everything the game templates show. ``event`` names what just happened
    (loaded, moved, blocked, new, kept-playing, repeated, hinted)."""
    game = stored.game
    return {
        "game": game,
        "seq": stored.seq,
        "assisted": stored.assisted,
        "best": best_scores(request, game.score, stored.assisted),
        "event": event,
        "direction": direction,
    }


def render_page(stored: StoredGame) -> str:
    """The whole game page."""
    return render_template(
        "game.html", controls=controls.client_data(), **game_context(stored, "loaded")
    )


def render_update(
    stored: StoredGame, event: str, direction: str | None = None
) -> tuple[str, dict[str, str]]:
    """The fragment answering a move, a new game or keep playing. The ``X-Seq`` header tells the
    page the last applied move number, so it keeps counting from the server's."""
    body = render_template("partials/update.html", **game_context(stored, event, direction))
    return body, {SEQ_HEADER: str(stored.seq)}


def render_hint(stored: StoredGame, values: dict[str, float]) -> str:
    """The fragment showing the solver's choice and, for each other legal direction, how far
    its value falls behind (raw values carry a large offset and mean little to a player)."""
    ranked = sorted(values.items(), key=lambda item: item[1], reverse=True)
    best = ranked[0][1] if ranked else 0.0
    return render_template(
        "partials/hint.html",
        recommended=ranked[0][0] if ranked else None,
        ranked=[(name, best - value) for name, value in ranked],
        **game_context(stored, "hinted"),
    )
