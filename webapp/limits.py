"""Rate limits (Flask-Limiter): a fair share per client of moves, the solver and new sessions.

One shared `limiter`; each route declares its budget with the decorators below, next to the
route itself. The numbers come from the app's configuration, read at request time. The budgets
that change a game or put the solver to work count twice: per session, and per client address,
where the address gets ADDRESS_BUDGET_SESSIONS times the session's budget in every window
(sessions cost nothing to make, so a per-session budget alone multiplies; and a school or a
mobile carrier puts many players behind one address, which a person's pace, far below a
session's budget, leaves room for):

- `game_budget`: every request that changes the game (move, undo, new game, keep playing)
  draws on one shared budget, MOVE_RATE_LIMIT; `game_budget_costing(cost)` draws on the same
  budget `cost()` at a time (a request carrying several moves counts each);
- `solver_budget`: hints, SOLVER_RATE_LIMIT;
- `review_budget`: asking for a review, REVIEW_RATE_LIMIT;
- `records_budget`: entering a game in the records table, RECORDS_RATE_LIMIT;
- `page_budget`: page loads that can start a game (every such page shares it), per client
  address only, PAGE_RATE_LIMIT;
- `history_budget`: reading a game's history (replay, its steps, review and its progress, the
  list of games), per client address only, HISTORY_RATE_LIMIT for each of these routes (anyone
  with a link may read).

A session's budget is keyed by a digest of its CSRF token, which the session keeps when a new
game gives it a fresh id: a new game does not refill it, and a new session (no cookie) is one
more session on the same address's budget.

Counters live in Redis when the sessions do, so every worker and host shares them, and otherwise
in an SQLite file of their own beside the game database (`webapp.limit_counters`), which every
worker process on the host shares. Should Redis fail, the limiter lets the request through
(``swallow_errors``): such a request finds the store down too and gets its 503 there, so counting
in memory meanwhile would protect nothing. A refused request gets a 429 with Retry-After, the
seconds until its window ends (only then: Flask-Limiter's X-RateLimit headers on every response
would cost a Redis round trip each). Once a client is refused on a budget, its later requests
on it are refused at the door until the window ends (`webapp.refusal_gate`), at next to no cost.
Behind the door, the requests a process runs at once are let in fairly across client addresses
(`webapp.fair_queue`).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

from flask import Flask, Response, current_app, request, session
from flask_limiter import Limiter, RequestLimit
from flask_limiter.util import get_remote_address
from limits import parse_many

from webapp.errors import refusal_message
from webapp.fair_queue import FairQueue
from webapp.limit_counters import counters_uri
from webapp.refusal_gate import ADDRESS, BUDGET_ATTRIBUTE, SESSION, RefusalGate
from webapp.store import database_path
from webapp.store.redis_client import fail_fast_options

ADDRESS_SUFFIX = "-address"


def session_key() -> str:
    """Each browser session's own budget, kept through a new game's fresh session id."""
    token = session.get("csrf_token")
    if isinstance(token, str):
        return "session:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return f"session:{session.sid}"


def scaled(limit: str, factor: int) -> str:
    """`limit` with `factor` times the requests in each of its windows."""
    return ";".join(f"{item.amount * factor}/{item.multiples} {item.GRANULARITY.name}"
                    for item in parse_many(limit))


def _setting(name: str) -> Callable[[], str]:
    return lambda: current_app.config[name]


def _address_share(name: str) -> Callable[[], str]:
    return lambda: scaled(current_app.config[name], current_app.config["ADDRESS_BUDGET_SESSIONS"])


def _remember_refusal(refused: RequestLimit) -> None:
    """Let the gate refuse this client on this budget until the window ends."""
    key, scope = refused.request_args[-2:]
    kind = ADDRESS if scope.endswith(ADDRESS_SUFFIX) else SESSION
    client = key if kind == ADDRESS else request.cookies.get(
        current_app.config["SESSION_COOKIE_NAME"], "")
    if client:
        current_app.extensions["refusal_gate"].remember(
            scope.removesuffix(ADDRESS_SUFFIX), kind, client, refused.reset_at)


limiter = Limiter(
    key_func=session_key,
    key_prefix="limit",
    headers_enabled=False,
    swallow_errors=True,
    on_breach=_remember_refusal,
)


def _per_session_and_address(setting: str, scope: str, cost: int | Callable[[], int] = 1
                             ) -> Callable[[Callable], Callable]:
    """A decorator drawing on the budget `setting` per session and its multiple per address,
    `cost` a request; `scope` names the budget, which every route it decorates shares."""
    per_session = limiter.shared_limit(_setting(setting), scope=scope, cost=cost)
    per_address = limiter.shared_limit(_address_share(setting), scope=scope + ADDRESS_SUFFIX,
                                       key_func=get_remote_address, cost=cost)

    def budgeted(view: Callable) -> Callable:
        limited = per_session(per_address(view))
        setattr(limited, BUDGET_ATTRIBUTE, scope)
        return limited
    return budgeted


game_budget = _per_session_and_address("MOVE_RATE_LIMIT", "game")


def game_budget_costing(cost: Callable[[], int]) -> Callable[[Callable], Callable]:
    """`game_budget`, drawing `cost()` from it for each request."""
    return _per_session_and_address("MOVE_RATE_LIMIT", "game", cost)


solver_budget = _per_session_and_address("SOLVER_RATE_LIMIT", "solver")
review_budget = _per_session_and_address("REVIEW_RATE_LIMIT", "review")
records_budget = _per_session_and_address("RECORDS_RATE_LIMIT", "records")
page_budget = limiter.shared_limit(_setting("PAGE_RATE_LIMIT"), scope="page",
                                   key_func=get_remote_address)
history_budget = limiter.limit(_setting("HISTORY_RATE_LIMIT"), key_func=get_remote_address)


def init_limits(app: Flask) -> None:
    """Bind the limiter to app, counting in Redis when the app keeps its games there."""
    if app.config["SESSION_BACKEND"] == "redis":
        app.config["RATELIMIT_STORAGE_URI"] = app.config["REDIS_URL"]
        app.config["RATELIMIT_STORAGE_OPTIONS"] = fail_fast_options(app.config["REDIS_TIMEOUT"])
    else:
        path = database_path(app)
        app.config["RATELIMIT_STORAGE_URI"] = counters_uri(
            path.with_name(f"{path.stem}-limits{path.suffix}"), app.config["SQLITE_BUSY_TIMEOUT"])
    limiter.init_app(app)
    app.after_request(_retry_after)
    gate = RefusalGate(app, refusal_message, app.config["REFUSAL_HOLD_THREADS"])
    gate.wsgi_app = FairQueue(gate.wsgi_app, app.config["FAIR_QUEUE_SLOTS"])
    app.extensions["refusal_gate"] = app.wsgi_app = gate


def _retry_after(response: Response) -> Response:
    """A refused request's wait: the seconds until the window that refused it ends (a 429 that
    says its own wait keeps it)."""
    if (response.status_code == 429 and "Retry-After" not in response.headers
            and (limit := limiter.current_limit) and limit.breached):
        response.headers["Retry-After"] = str(max(1, round(limit.reset_at - time.time())))
    return response
