"""Server-side sessions: where the player's game is kept between requests and visits.

The embedded default is a file store (cachelib's FileSystemCache) under the instance folder.
Sessions are permanent with a sliding expiry: every request that stores the game (page load,
move, new game, hint...) refreshes the cookie and the stored entry for another
``SESSION_LIFETIME_DAYS``. Requests that leave the session alone (static files) do not write it:
rewriting the unchanged session they loaded would race with a move being stored meanwhile. The store holds up to ``SESSION_STORE_MAX_ENTRIES``
sessions (cachelib's own default of 500 would silently drop older players' games); beyond that it
prunes expired entries first.
"""

from pathlib import Path

from cachelib.file import FileSystemCache
from flask import Flask
from flask_session import Session

SESSION_DIR_NAME = "sessions"


def init_sessions(app: Flask) -> None:
    """Attach the server-side session store configured in ``app.config``."""
    app.config.setdefault("SESSION_TYPE", "cachelib")
    if app.config["SESSION_TYPE"] == "cachelib" and not app.config.get("SESSION_CACHELIB"):
        app.config["SESSION_CACHELIB"] = FileSystemCache(
            str(Path(app.instance_path) / SESSION_DIR_NAME),
            threshold=app.config["SESSION_STORE_MAX_ENTRIES"],
            default_timeout=int(app.config["PERMANENT_SESSION_LIFETIME"].total_seconds()),
        )
    app.config.update(
        SESSION_PERMANENT=True,
        SESSION_REFRESH_EACH_REQUEST=False,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    Session(app)
