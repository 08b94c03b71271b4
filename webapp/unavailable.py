"""The answer while the session store is out of reach: 503 with Retry-After, nothing changed.

A request from the page's script gets the message fragment; the page shows it and sends the same
request again. A page load gets a small page that reloads itself until the game is back.
"""

from __future__ import annotations

from flask import Flask, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from webapp.store_errors import StoreUnavailable

RETRY_AFTER_SECONDS = 1


def _store_unavailable(_error: StoreUnavailable) -> ResponseReturnValue:
    message = _("Can't reach the game server, retrying…")
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if request.method == "GET":
        page = render_template("unavailable.html", message=message, retry_after=RETRY_AFTER_SECONDS)
        return page, 503, headers
    return render_template("partials/message.html", message=message), 503, headers


def init_unavailable(app: Flask) -> None:
    """Answer StoreUnavailable with the retrying message."""
    app.register_error_handler(StoreUnavailable, _store_unavailable)
