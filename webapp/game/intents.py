"""Reading the player's intent from a request form; anything malformed is a 400."""

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import BadRequest

from engine import DIRECTIONS
from webapp.store.records import is_game_id

MAX_SEQ_DIGITS = 12


class InvalidIntent(BadRequest):
    """A malformed intent; its description is the message for the player."""


def direction(form: MultiDict) -> str:
    """The requested direction, one of the engine's four."""
    value = form.get("direction")
    if value not in DIRECTIONS:
        raise InvalidIntent(_("Unknown direction."))
    return value


def seq(form: MultiDict) -> int:
    """The move's sequence number: a non-negative integer the page counts up."""
    value = form.get("seq", "")
    if not (value.isascii() and value.isdigit() and len(value) <= MAX_SEQ_DIGITS):
        raise InvalidIntent(_("Missing or invalid move number."))
    return int(value)


def game_id(form: MultiDict) -> str:
    """The id of the game the page shows (which the request is about)."""
    value = form.get("game")
    if not is_game_id(value):
        raise InvalidIntent(_("Missing or invalid game."))
    return value
