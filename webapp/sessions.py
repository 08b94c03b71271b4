"""Server-side sessions: where the player's game is kept between requests and visits.

The embedded default is a file store under the instance folder; SESSION_BACKEND=redis keeps
games in Redis instead. Both lock each game for the length of a request and answer 503 when the
store fails (``session_backends``, ``locked_session``). Sessions are permanent with a sliding
expiry: every request that stores the game (page load, move, new game, hint) pushes the cookie
and the stored entry ``SESSION_LIFETIME_DAYS`` further. Requests that leave the session alone
(static files) do not write it. The file store holds up to ``SESSION_STORE_MAX_ENTRIES`` games,
not cachelib's default of 500, which would silently drop players' games (``counted_file_cache``).
"""

from flask import Flask

from .locked_session import install_locked_sessions
from .session_backends import build_session_interface


def init_sessions(app: Flask) -> None:
    """Attach the server-side session store configured in ``app.config``."""
    app.config.update(
        SESSION_PERMANENT=True,
        SESSION_REFRESH_EACH_REQUEST=False,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    install_locked_sessions(app, build_session_interface(app))
