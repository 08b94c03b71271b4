"""Answers to requests that cannot be served as asked; nothing in the game changes.

- A refused request from the page's script (4xx on a POST) gets a short message in the player's
  language, as the fragment the page shows. Page loads keep Werkzeug's plain pages.
- While the store is out of reach (`StoreUnavailable`): 503 with Retry-After. The script gets the
  message fragment and sends the same request again; a page load gets a small page that reloads
  itself until the game is back.
"""

from flask import Flask, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from webapp.game.intents import InvalidIntent
from webapp.store.errors import StoreUnavailable

#: What the player reads whenever the game server cannot be reached, whoever notices it.
UNREACHABLE = lazy_gettext("Can't reach the game server, retrying…")
RETRY_AFTER_SECONDS = 1
SOLVER_ENDPOINT = "game.hint"


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


def _store_unavailable(_error: StoreUnavailable) -> ResponseReturnValue:
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if request.method == "GET":
        page = render_template(
            "unavailable.html", message=UNREACHABLE, retry_after=RETRY_AFTER_SECONDS
        )
        return page, 503, headers
    return render_template("partials/message.html", message=UNREACHABLE), 503, headers


def init_errors(app: Flask) -> None:
    """Register the answers above; templates get the unreachable message as a global."""
    app.register_error_handler(StoreUnavailable, _store_unavailable)
    app.register_error_handler(HTTPException, _refused)
    app.jinja_env.globals["unreachable_message"] = UNREACHABLE
