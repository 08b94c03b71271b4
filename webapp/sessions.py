"""Server-side sessions: where the player's game is kept between requests and visits.

The embedded default is a file store (cachelib's FileSystemCache) under the instance folder;
SESSION_BACKEND=redis keeps them in Redis instead (``session_backends``: both lock each game
for the length of a request, and answer 503 when the store fails). Sessions are permanent
with a sliding expiry: every request that stores the game (page load, move, new game,
hint...) refreshes the cookie and the stored entry for another
``SESSION_LIFETIME_DAYS``. Requests that leave the session alone (static files) do not write it:
rewriting the unchanged session they loaded would race with a move being stored meanwhile. The store holds up to ``SESSION_STORE_MAX_ENTRIES``
sessions (cachelib's own default of 500 would silently drop older players' games); beyond that it
prunes expired entries first.
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
