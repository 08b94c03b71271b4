"""Reading the player's intent from a request form; anything malformed is a 400."""

from werkzeug.datastructures import MultiDict

from engine import DIRECTIONS
from webapp.errors import InvalidIntent
from webapp.i18n import translate as _
from webapp.store.game_record import is_game_id

MAX_SEQ_DIGITS = 12
#: The most moves one request may carry: the presses a player made while the page waited for
#: the answer before (the page's script reads it from the controls' data block).
MAX_MOVES = 16
#: The route each of the page's requests goes to, by the intent the queue names it with
#: (static/js/queue.js); "state" resets the page to the server's current game.
ENDPOINTS: dict[str, str] = {
    "move": "game.move", "undo": "game.undo", "new": "game.new_game",
    "keep-playing": "game.keep_playing", "hint": "game.hint", "solver-move": "game.solver_move",
}


def directions(form: MultiDict) -> list[str]:
    """The requested directions in the order pressed (a ``direction`` field each), one to
    MAX_MOVES of the engine's four."""
    values = form.getlist("direction")
    if not values or any(value not in DIRECTIONS for value in values):
        raise InvalidIntent(_("Unknown direction."))
    if len(values) > MAX_MOVES:
        raise InvalidIntent(_("Too many moves in one request."))
    return values


def move_count(form: MultiDict) -> int:
    """How many moves a request asks for, as its rate-limit cost: 1 to MAX_MOVES whatever the
    form holds (a malformed one is refused afterwards)."""
    return min(max(len(form.getlist("direction")), 1), MAX_MOVES)


def seq(form: MultiDict) -> int:
    """The move's sequence number: a non-negative integer the page counts up."""
    value = form.get("seq", "")
    if not (value.isascii() and value.isdigit() and len(value) <= MAX_SEQ_DIGITS):
        raise InvalidIntent(_("Missing or invalid move number."))
    return int(value)


def retry(form: MultiDict) -> bool:
    """Whether the page sends the request again after a lost connection or a server error: its
    first try may have used its numbers (``retry=1``)."""
    return form.get("retry") == "1"


def game_id(form: MultiDict) -> str:
    """The id of the game the page shows (which the request is about)."""
    value = form.get("game")
    if not is_game_id(value):
        raise InvalidIntent(_("Missing or invalid game."))
    return value
