"""Answers to requests that cannot be served as asked; nothing in the game changes.

- A refused request from the page's script (4xx on a POST) gets a short message in the player's
  language, as the fragment the page shows. When the refusal means the page's game or token is
  stale (the game is gone, or the session that held the token), the answer says so in its
  ``X-Stale`` header and the page fetches the current state by itself.
- A page load that fails (not found, method not allowed, server error, ...) gets the site's own
  page in the reader's language, with the same status and a way back to the game.
- While the store is out of reach (`StoreUnavailable`, or any store fault a route meets):
  503 with Retry-After. The script gets the
  message fragment and sends the same request again; a page load gets a small page that reloads
  itself until the game is back.
"""

from flask import Flask, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequest, Conflict, HTTPException

from webapp.i18n import lazy_gettext
from webapp.i18n import translate as _
from webapp.store.errors import STORE_ERRORS, StoreUnavailable, fault_text

#: What the player reads whenever the game server cannot be reached, whoever notices it.
UNREACHABLE = lazy_gettext("Can't reach the game server, retrying…")
#: What the player reads when the page stopped resending a request the server kept failing.
GAVE_UP = lazy_gettext("The game server keeps failing, so your last presses were not played. "
                       "Try again in a moment.")
#: What the player reads when an answer shows the game at an older move than the page did: the
#: server lost moves it had answered (its store failed over to a copy that lacked them).
BEHIND = lazy_gettext("The server lost your latest moves, so the board is back where the "
                      "server's copy of the game stands.")
RETRY_AFTER_SECONDS = 1
#: The routes that put the solver to work: their 429 says the solver needs a break.
SOLVER_ENDPOINTS = ("game.hint", "game.solver_move", "review.ask_review")
STALE_HEADER = "X-Stale"


class GameGone(Conflict):
    """409: the game the page shows is not this browser's current game any more (it expired,
    was evicted, or another tab replaced it). The page fetches the current state and goes on."""


class InvalidIntent(BadRequest):
    """A malformed intent; its description is the message for the player."""


def refusal_message(error: HTTPException) -> str:
    """What to tell the player about a refused request."""
    if isinstance(error, CSRFError):
        return _("This page's security token is missing or has expired. Reload the page.")
    if isinstance(error, GameGone):
        return _("This game is no longer on the server.")
    if error.code == 429 and request.endpoint in SOLVER_ENDPOINTS:
        return _("The solver needs a short break. Try again in a moment.")
    if error.code == 429:
        return _("Too many moves at once. Wait a moment and try again.")
    if error.code == 413:
        return _("This request is too large.")
    if isinstance(error, InvalidIntent):
        return error.description
    return _("This request was refused. Reload the page.")


PAGE_LOADS = ("GET", "HEAD")
#: Status -> (title, explanation) of the page a failed page load gets.
ERROR_PAGES = {
    404: (lazy_gettext("Page not found"),
          lazy_gettext("There is no page at this address. The link may be mistyped or old.")),
    405: (lazy_gettext("Not possible here"),
          lazy_gettext("This address does not answer that kind of request.")),
    429: (lazy_gettext("Too many requests"),
          lazy_gettext("This address was asked for too often. Wait a minute, then reload.")),
    500: (lazy_gettext("Something went wrong"),
          lazy_gettext("The server ran into a problem. Try again in a moment.")),
}
OTHER_ERROR = (lazy_gettext("This page cannot be shown"),
               lazy_gettext("The server could not answer this request."))


def error_page(error: HTTPException) -> ResponseReturnValue:
    """The site's own page for a failed page load, keeping the status and headers (Allow)."""
    code = error.code or 500
    title, explanation = ERROR_PAGES.get(code, OTHER_ERROR)
    headers = [(name, value) for name, value in error.get_headers() if name != "Content-Type"]
    page = render_template("errors/page.html", code=code, title=title, explanation=explanation)
    return page, code, headers


def _refused(error: HTTPException) -> ResponseReturnValue:
    """Also reached by unexpected exceptions, as a 500 (Flask has logged them)."""
    if request.method in PAGE_LOADS:
        return error_page(error)
    if not 400 <= (error.code or 0) < 500:
        return error
    headers = {name: value for name, value in error.get_headers() if name != "Content-Type"}
    if isinstance(error, (CSRFError, GameGone)):
        headers[STALE_HEADER] = "1"
    body = render_template("partials/message.html", message=refusal_message(error))
    return body, error.code, headers


def _store_fault(error: Exception) -> ResponseReturnValue:
    where = current_app.session_interface.where  # the games live in the sessions' store
    current_app.logger.warning("store fault (%s): %s", where, fault_text(error))
    return _store_unavailable(StoreUnavailable())


def _store_unavailable(_error: StoreUnavailable) -> ResponseReturnValue:
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if request.method == "GET":
        page = render_template(
            "unavailable.html", message=UNREACHABLE, retry_after=RETRY_AFTER_SECONDS
        )
        return page, 503, headers
    return render_template("partials/message.html", message=UNREACHABLE), 503, headers


def init_errors(app: Flask) -> None:
    """Register the answers above."""
    app.register_error_handler(StoreUnavailable, _store_unavailable)
    for fault in STORE_ERRORS:
        app.register_error_handler(fault, _store_fault)
    app.register_error_handler(HTTPException, _refused)
