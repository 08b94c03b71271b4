"""Security headers on every response and a cap on request bodies, also on bodies sent in
chunks (no Content-Length), which Werkzeug would otherwise cut short silently.

The policy allows nothing but the site's own files: no inline script or style, no other origin,
no framing. Cookies are HttpOnly and SameSite=Lax, and Secure when SESSION_COOKIE_SECURE is on
(production's default). TLS is expected to end at a proxy in front of gunicorn, which redirects
plain HTTP; HSTS is sent on requests that arrived over HTTPS (as the app sees them: behind
PROXY_HOPS proxies, as the nearest one says).

The headers are the same on every response, so they are written out once, here. Flask-Talisman
set them before, working each one out again from its options on every response: a tenth of a
move request's CPU.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, Response, request

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
#: Every response's headers, in the order they are sent.
HEADERS: dict[str, str] = {
    "Permissions-Policy": ", ".join(f"{feature}={allowed}"
                                    for feature, allowed in PERMISSIONS_POLICY.items()),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "; ".join(f"{directive} {sources}"
                                         for directive, sources in CONTENT_SECURITY_POLICY.items()),
    "Referrer-Policy": REFERRER_POLICY,
}
#: A year (of 365.2422 days), and every subdomain: browsers keep to HTTPS for that long.
STRICT_TRANSPORT_SECURITY = "max-age=31556926; includeSubDomains"
#: The headers of a response to a request that came over HTTPS.
SECURE_HEADERS: dict[str, str] = {
    **{name: value for name, value in HEADERS.items() if name != "Referrer-Policy"},
    "Strict-Transport-Security": STRICT_TRANSPORT_SECURITY,
    "Referrer-Policy": REFERRER_POLICY,
}
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
    """Add the headers to every response, set the session cookie's flags and cap request
    bodies at MAX_CONTENT_LENGTH (a chunked body in `ChunkedBodyCap`, in `webapp.wsgi_stack`)."""
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default: no limit at all
        app.config["MAX_CONTENT_LENGTH"] = MAX_CONTENT_LENGTH
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.after_request(_add_headers)


def _add_headers(response: Response) -> Response:
    response.headers.update(SECURE_HEADERS if request.is_secure else HEADERS)
    return response
