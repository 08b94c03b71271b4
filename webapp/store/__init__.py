"""The store: where players' games are kept between requests and visits.

Server-side sessions (Flask-Session) on one of two backends (``backends``): a file store under
the instance folder (the embedded default, one host) or Redis (``SESSION_BACKEND=redis``, any
number of processes and hosts). Either way each game is locked for the length of a request
(``locks``, ``locked_session``) and a store fault becomes a 503 with nothing written
(``errors``). Sessions are permanent with a sliding expiry: every request that stores the game
pushes the cookie and the stored entry ``SESSION_LIFETIME_DAYS`` further; requests that leave
the session alone (static files) do not write it. The file store holds up to
``SESSION_STORE_MAX_ENTRIES`` games (``file_cache``).
"""

from flask import Flask

from webapp.store.backends import build_session_interface
from webapp.store.locked_session import install_locked_sessions


def init_store(app: Flask) -> None:
    """Attach the server-side session store configured in ``app.config``."""
    app.config.update(
        SESSION_PERMANENT=True,
        SESSION_REFRESH_EACH_REQUEST=False,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    install_locked_sessions(app, build_session_interface(app))
