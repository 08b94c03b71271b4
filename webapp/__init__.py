"""2048 in the browser: the web layer. The rules live in ``engine``; this package routes
intents to it, keeps the game in the store and renders templates.

Wings, each with its routes, its views and the storage only it uses: ``game`` (the game's routes
and page, and what its answers show), ``daily`` (the daily game), ``history`` (a game's replay, the
list of this browser's games), ``review`` (the solver's review of a game, run in the background),
``leaderboard`` (the records table), ``pages`` (rules, strategy, solver). Under them ``store``
(where games and sessions are kept). Beside them the cross-cutting parts, which import no wing (but
``links``, which asks the leaderboard for an entered game's copy): ``config``, ``security``,
``compression`` (static text files sent compressed), ``traffic`` (the budgets, where their counts
live, refusing a refused client at the door, serving clients fairly), ``errors``, ``i18n``,
``rendering`` (how templates compile and render), ``days`` (the daily game's days and openings, and
which day a game is), ``links`` (a game by its link, for the history and the review), ``charts``
(what every chart's geometry shares), ``overrides`` (where the code leans on a library's internals)
and ``production`` (the app gunicorn serves). `wsgi_stack` puts the middleware in front of the app,
in the order a request meets them.
"""

from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from engine import solver
from webapp import i18n
from webapp.compression import init_compression
from webapp.config import configure
from webapp.daily.routes import bp as daily_bp
from webapp.errors import init_errors, refusal_message
from webapp.game.routes import bp as game_bp
from webapp.history.routes import bp as history_bp
from webapp.i18n import init_i18n
from webapp.leaderboard import init_leaderboard
from webapp.leaderboard.commands import init_leaderboard_commands
from webapp.leaderboard.routes import bp as leaderboard_bp
from webapp.pages.app_shell import bp as app_shell_bp
from webapp.pages.routes import bp as pages_bp
from webapp.rendering.jinja import init_templating
from webapp.review import init_review
from webapp.review.routes import bp as review_bp
from webapp.security import ChunkedBodyCap, init_security
from webapp.store import init_store
from webapp.store.operations import init_operations
from webapp.traffic import init_traffic
from webapp.traffic.budgets import GATE
from webapp.traffic.fair_queue import FairQueue
from webapp.traffic.gate import RefusalGate

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
    init_traffic(app)
    init_errors(app)
    init_compression(app)
    init_review(app)
    init_operations(app)
    init_leaderboard(app)
    init_leaderboard_commands(app)
    app.register_blueprint(game_bp)
    app.register_blueprint(daily_bp)
    app.register_blueprint(history_bp)
    app.register_blueprint(review_bp)
    app.register_blueprint(leaderboard_bp)
    app.register_blueprint(pages_bp)
    app.register_blueprint(app_shell_bp)
    app.register_blueprint(i18n.bp)
    i18n.speak_page_language(app, (game_bp.name, daily_bp.name, history_bp.name, review_bp.name,
                                   leaderboard_bp.name))
    wsgi_stack(app)
    if app.config["SOLVER_WARM_UP"]:
        solver.warm_up()
    return app


def wsgi_stack(app: Flask) -> None:
    """Put the middleware in front of the app's own WSGI callable. A request meets them in this
    order, each handing it on to the next:

    1. ProxyFix, with PROXY_HOPS proxies in front (production's setting; none otherwise): the
       client's address and scheme as the nearest proxy saw them;
    2. RefusalGate (`webapp.traffic.gate`): a client a budget refused is answered at the door
       until its window ends;
    3. FairQueue (`webapp.traffic.fair_queue`): a few requests at once run the app, and a freed
       place goes to the least served client address;
    4. ChunkedBodyCap (`webapp.security`): a body sent in chunks is read up to the size cap;
    5. Flask: the session, the CSRF token, the route's budget, the route.
    """
    config = app.config
    body_capped = ChunkedBodyCap(app.wsgi_app, lambda: config["MAX_CONTENT_LENGTH"])
    queued = FairQueue(body_capped, config["FAIR_QUEUE_SLOTS"])
    gate = app.extensions[GATE] = RefusalGate(app, queued, refusal_message,
                                              config["REFUSAL_HOLD_THREADS"])
    hops = config.get("PROXY_HOPS", 0)
    app.wsgi_app = ProxyFix(gate, x_for=hops, x_proto=hops) if hops else gate  # type: ignore
