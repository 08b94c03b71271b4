"""Refused requests from the page's script: a short message in the player's language, as the
fragment the page shows; nothing in the game changes. Page loads keep Werkzeug's plain pages."""

from flask import Flask, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from .intents import InvalidIntent
from .limits import SOLVER_ENDPOINT


def refusal_message(error: HTTPException) -> str:
    """What to tell the player about a refused request."""
    if isinstance(error, CSRFError):
        return _("This page's security token is missing or has expired. Reload the page.")
    if error.code == 429 and request.endpoint == SOLVER_ENDPOINT:
        return _("The solver needs a short break. Try again in a moment.")
    if error.code == 429:
        return _("Too many moves at once. Wait a moment and try again.")
    if error.code == 413:
        return _("This request is too large.")
    if isinstance(error, InvalidIntent):
        return error.description
    return _("This request was refused. Reload the page.")


def _refused(error: HTTPException) -> ResponseReturnValue:
    if request.method == "GET" or not 400 <= (error.code or 0) < 500:
        return error
    return render_template("partials/message.html", message=refusal_message(error)), error.code


def init_errors(app: Flask) -> None:
    """Answer refused POST requests with the message fragment."""
    app.register_error_handler(HTTPException, _refused)
