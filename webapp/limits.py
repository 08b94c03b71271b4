"""Rate limits (Flask-Limiter): no client hogs moves, the solver, or new sessions.

- the solver has its own budget per session: SOLVER_RATE_LIMIT;
- every other request that changes the game (move, new game, keep playing: the POST routes)
  draws on one shared budget per session: MOVE_RATE_LIMIT;
- page loads are counted per client address, PAGE_RATE_LIMIT, since each can start a session.

Counters live in Redis when the sessions do, so every worker and host shares them, and in memory
otherwise. Should Redis fail, counting falls back to memory rather than failing the request.
A refused request gets a 429 with Retry-After (only then: Flask-Limiter's X-RateLimit headers on
every response would cost a Redis round trip each).
"""

from __future__ import annotations

import time

from flask import Flask, Response, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from webapp.redis_client import fail_fast_options

SOLVER_ENDPOINT = "hints.hint"
PAGE_ENDPOINT = "game.index"


def session_key() -> str:
    """The player's session id: each browser session has its own budget."""
    return f"session:{session.sid}"


def _posted_to(app: Flask) -> set[str]:
    return {rule.endpoint for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ())}


def _storage(app: Flask) -> tuple[str, dict[str, object]]:
    if app.config["SESSION_BACKEND"] != "redis":
        return "memory://", {}
    return app.config["REDIS_URL"], fail_fast_options(app.config["REDIS_TIMEOUT"])


def init_limits(app: Flask) -> Limiter:
    """Attach the limits to the app's routes; call once every blueprint is registered."""
    storage_uri, storage_options = _storage(app)
    limiter = Limiter(
        key_func=session_key,
        app=app,
        storage_uri=storage_uri,
        storage_options=storage_options,
        key_prefix="limit",
        headers_enabled=False,
        in_memory_fallback_enabled=True,
        swallow_errors=True,
    )
    views = app.view_functions
    game_budget = limiter.shared_limit(app.config["MOVE_RATE_LIMIT"], scope="game")
    for endpoint in _posted_to(app) - {SOLVER_ENDPOINT}:
        views[endpoint] = game_budget(views[endpoint])
    views[SOLVER_ENDPOINT] = limiter.limit(app.config["SOLVER_RATE_LIMIT"])(views[SOLVER_ENDPOINT])
    page_budget = limiter.limit(app.config["PAGE_RATE_LIMIT"], key_func=get_remote_address)
    views[PAGE_ENDPOINT] = page_budget(views[PAGE_ENDPOINT])

    @app.after_request
    def retry_after(response: Response) -> Response:
        if response.status_code == 429 and (limit := limiter.current_limit):
            response.headers["Retry-After"] = str(max(1, round(limit.reset_at - time.time())))
        return response

    return limiter
