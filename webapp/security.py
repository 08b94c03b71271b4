"""Security headers on every response (Flask-Talisman) and a cap on request bodies.

The policy allows nothing but the site's own files: no inline script or style, no other origin,
no framing. Cookies are HttpOnly and SameSite=Lax, and Secure when SESSION_COOKIE_SECURE is on
(production's default). TLS is expected to end at a proxy in front of gunicorn, which redirects
plain HTTP; HSTS is sent on requests that arrived over HTTPS.
"""

from __future__ import annotations

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


def init_security(app: Flask) -> None:
    """Add the headers to every response and cap request bodies at MAX_CONTENT_LENGTH."""
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default: no limit at all
        app.config["MAX_CONTENT_LENGTH"] = MAX_CONTENT_LENGTH
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
