"""Rate limits (Flask-Limiter): no client hogs moves, the solver, or new sessions.

One shared `limiter`; each route declares its budget with the decorators below, next to the
route itself. The numbers come from the app's configuration, read at request time:

- `game_budget`: every request that changes the game (move, undo, new game, keep playing)
  draws on one shared budget per session, MOVE_RATE_LIMIT;
- `solver_budget`: hints, per session, SOLVER_RATE_LIMIT, and per client address,
  SOLVER_ADDRESS_RATE_LIMIT (sessions cost nothing, so a per-session budget alone multiplies);
- `page_budget`: page loads that can start a game (every such page shares it), per client
  address, PAGE_RATE_LIMIT;
- `history_budget`: reading a game's history (replay, its steps, review and its progress, the
  list of games), per client address, HISTORY_RATE_LIMIT (anyone with a link may read);
- `review_budget`: asking for a review, per session, REVIEW_RATE_LIMIT, and per client address,
  REVIEW_ADDRESS_RATE_LIMIT.

Counters live in Redis when the sessions do, so every worker and host shares them, and in memory
otherwise: then each worker process counts for itself, so with N workers a client can get up to
N times the budget. Should Redis fail, the limiter lets the request through
(``swallow_errors``): such a request finds the store down too and gets its 503 there, so counting
in memory meanwhile would protect nothing. A refused request gets a 429 with Retry-After (only
then: Flask-Limiter's X-RateLimit headers on every response would cost a Redis round trip
each).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

from flask import Flask, Response, current_app, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from webapp.store.redis_client import fail_fast_options


def session_key() -> str:
    """Each browser session's own budget. It is keyed by a digest of the session's CSRF token,
    which the session keeps when a new game gives it a fresh id (the session id before it has
    one), so starting new games does not refill the budget."""
    token = session.get("csrf_token")
    if isinstance(token, str):
        return "session:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return f"session:{session.sid}"


def _setting(name: str) -> Callable[[], str]:
    return lambda: current_app.config[name]


limiter = Limiter(
    key_func=session_key,
    key_prefix="limit",
    headers_enabled=False,
    swallow_errors=True,
)

game_budget = limiter.shared_limit(_setting("MOVE_RATE_LIMIT"), scope="game")
page_budget = limiter.shared_limit(_setting("PAGE_RATE_LIMIT"), scope="page",
                                   key_func=get_remote_address)
_solver_per_session = limiter.limit(_setting("SOLVER_RATE_LIMIT"))
_solver_per_address = limiter.limit(_setting("SOLVER_ADDRESS_RATE_LIMIT"),
                                    key_func=get_remote_address)


history_budget = limiter.limit(_setting("HISTORY_RATE_LIMIT"), key_func=get_remote_address)
_review_per_session = limiter.limit(_setting("REVIEW_RATE_LIMIT"))
_review_per_address = limiter.limit(_setting("REVIEW_ADDRESS_RATE_LIMIT"),
                                    key_func=get_remote_address)


def solver_budget(view: Callable) -> Callable:
    """Both of the solver's budgets: per session and per client address."""
    return _solver_per_session(_solver_per_address(view))


def review_budget(view: Callable) -> Callable:
    """Both of the review's budgets: per session and per client address."""
    return _review_per_session(_review_per_address(view))


def init_limits(app: Flask) -> None:
    """Bind the limiter to app, counting in Redis when the app keeps its games there."""
    if app.config["SESSION_BACKEND"] == "redis":
        app.config["RATELIMIT_STORAGE_URI"] = app.config["REDIS_URL"]
        app.config["RATELIMIT_STORAGE_OPTIONS"] = fail_fast_options(app.config["REDIS_TIMEOUT"])
    else:
        app.config["RATELIMIT_STORAGE_URI"] = "memory://"
    limiter.init_app(app)
    app.after_request(_retry_after)


def _retry_after(response: Response) -> Response:
    if response.status_code == 429 and (limit := limiter.current_limit):
        response.headers["Retry-After"] = str(max(1, round(limit.reset_at - time.time())))
    return response
