"""2048 in the browser: the web layer. The rules live in ``engine``; this package only routes
intents to it, keeps the game in the session and renders templates."""

from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from . import game_routes, pages
from .baseline import init_baseline
from .config import configure
from .errors import init_errors
from .hints import init_hints
from .i18n import init_i18n
from .limits import init_limits
from .security import init_security
from .sessions import init_sessions
from .unavailable import init_unavailable

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def create_app(config: dict | None = None) -> Flask:
    """Build the app. ``config`` overrides settings; its ``INSTANCE_PATH`` moves the instance
    folder (secret key and the session store)."""
    config = dict(config or {})
    app = Flask(
        __name__,
        instance_path=config.pop("INSTANCE_PATH", None),
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    configure(app, config)
    init_sessions(app)
    init_security(app)
    CSRFProtect(app)
    init_i18n(app)
    init_errors(app)
    init_unavailable(app)
    app.register_blueprint(game_routes.bp)
    app.register_blueprint(pages.bp)
    init_hints(app)
    init_baseline(app)
    init_limits(app)  # last: it limits the routes registered above
    return app
