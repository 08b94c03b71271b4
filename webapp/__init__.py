"""2048 in the browser: the web layer. The rules live in ``engine``; this package routes
intents to it, keeps the game in the store and renders templates.

Wings: ``game`` (the game's routes and page), ``daily`` (the daily game), ``history`` (a
game's replay and review, the list of this browser's games), ``records`` (the records table),
``pages`` (rules, strategy, solver), ``store`` (where games are kept), ``views`` (what each
answer shows, computed once and drawn by the templates). Beside them the
cross-cutting parts: ``config``, ``security``, ``limits`` (the budgets) with
``limit_counters`` (where their counts live), ``refusal_gate`` (refusing a refused client at
the door) and ``fair_queue`` (serving clients fairly), ``errors``, ``i18n``, ``templating``
(how templates compile and render), ``charts`` (what every chart's geometry shares) and
``production`` (the app gunicorn serves).
"""

from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from engine import solver
from webapp import i18n
from webapp.config import configure
from webapp.daily.routes import bp as daily_bp
from webapp.errors import init_errors
from webapp.game.routes import bp as game_bp
from webapp.history.routes import bp as history_bp
from webapp.history.routes import init_history
from webapp.i18n import init_i18n
from webapp.limits import init_limits
from webapp.pages.app_shell import bp as app_shell_bp
from webapp.pages.routes import bp as pages_bp
from webapp.records.commands import init_records_commands
from webapp.records.routes import bp as records_bp
from webapp.security import init_security
from webapp.store import init_store
from webapp.store.operations import init_operations
from webapp.templating import init_templating

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
    init_templating(app)
    init_store(app)
    init_security(app)
    CSRFProtect(app)
    init_i18n(app)
    init_limits(app)
    init_errors(app)
    init_history(app)
    init_operations(app)
    init_records_commands(app)
    app.register_blueprint(game_bp)
    app.register_blueprint(daily_bp)
    app.register_blueprint(history_bp)
    app.register_blueprint(records_bp)
    app.register_blueprint(pages_bp)
    app.register_blueprint(app_shell_bp)
    app.register_blueprint(i18n.bp)
    i18n.speak_page_language(app, (game_bp.name, daily_bp.name, history_bp.name, records_bp.name))
    if app.config["SOLVER_WARM_UP"]:
        solver.warm_up()
    return app
