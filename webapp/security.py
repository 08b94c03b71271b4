"""Security headers on every response (Flask-Talisman) and a cap on request bodies, also on
bodies sent in chunks (no Content-Length), which Werkzeug would otherwise cut short silently.

The policy allows nothing but the site's own files: no inline script or style, no other origin,
no framing. Cookies are HttpOnly and SameSite=Lax, and Secure when SESSION_COOKIE_SECURE is on
(production's default). TLS is expected to end at a proxy in front of gunicorn, which redirects
plain HTTP; HSTS is sent on requests that arrived over HTTPS.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from flask_talisman import Talisman

CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
PERMISSIONS_POLICY = {"camera": "()", "geolocation": "()", "microphone": "()", "payment": "()"}
REFERRER_POLICY = "same-origin"
#: A move is a direction and a number: a few dozen bytes. Anything past this is refused (413).
MAX_CONTENT_LENGTH = 4 * 1024


class ChunkedBodyCap:
    """WSGI middleware: a body without Content-Length (chunked) is read up to one byte past the
    cap and handed on with its length; one that is longer is announced as too long, so the app
    answers it with the same 413 as any other oversized body."""

    def __init__(self, wsgi_app: Callable, limit: Callable[[], int]) -> None:
        self.wsgi_app, self.limit = wsgi_app, limit

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if "wsgi.input_terminated" in environ and not environ.get("CONTENT_LENGTH"):
            body = _read_up_to(environ["wsgi.input"], self.limit() + 1)
            environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)  # the body is whole now, and measured
        return self.wsgi_app(environ, start_response)


def _read_up_to(stream: Any, size: int) -> bytes:
    """Up to `size` bytes of `stream`, however few each read returns (a chunk at a time)."""
    parts, left = [], size
    while left > 0 and (part := stream.read(left)):
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def init_security(app: Flask) -> None:
    """Add the headers to every response and cap request bodies at MAX_CONTENT_LENGTH."""
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default: no limit at all
        app.config["MAX_CONTENT_LENGTH"] = MAX_CONTENT_LENGTH
    app.wsgi_app = ChunkedBodyCap(app.wsgi_app, lambda: app.config["MAX_CONTENT_LENGTH"])
    Talisman(
        app,
        force_https=False,
        frame_options="DENY",
        content_security_policy=CONTENT_SECURITY_POLICY,
        permissions_policy=PERMISSIONS_POLICY,
        referrer_policy=REFERRER_POLICY,
        session_cookie_secure=app.config.get("SESSION_COOKIE_SECURE", False),
        session_cookie_http_only=True,
        session_cookie_samesite="Lax",
    )
