"""The budgets: a fair share per client of moves, the solver and new sessions.

Each route declares its budget with the decorators below, next to the route itself. The numbers
come from the app's configuration, read at request time. The budgets that change a game or put
the solver to work count twice: per session, and per client address, where the address gets
ADDRESS_BUDGET_SESSIONS times the session's budget in every window (sessions cost nothing to
make, so a per-session budget alone multiplies; and a school or a mobile carrier puts many
players behind one address, which a person's pace, far below a session's budget, leaves room
for):

- `game_budget`: every request that changes the game (move, undo, new game, keep playing)
  draws on one shared budget, MOVE_RATE_LIMIT; `game_budget_costing(cost)` draws on the same
  budget `cost()` at a time (a request carrying several moves counts each);
- `solver_budget`: hints, SOLVER_RATE_LIMIT;
- `review_budget`: asking for a review, REVIEW_RATE_LIMIT;
- `leaderboard_budget`: entering a game in the records table, RECORDS_RATE_LIMIT;
- `page_budget`: page loads that can start a game (every such page shares it), per client
  address only, PAGE_RATE_LIMIT;
- `history_budget`: reading a game's history (replay, its steps, review and its progress, the
  list of games), per client address only, HISTORY_RATE_LIMIT for each of these routes (anyone
  with a link may read).

A session's budget is keyed by a digest of its CSRF token, which the session keeps when a new
game gives it a fresh id: a new game does not refill it, and a new session (no cookie) is one
more session on the same address's budget.

Counters live in Redis when the sessions do, so every worker and host shares them, and otherwise
in an SQLite file of their own beside the game database, which every worker process on the host
shares (`webapp.traffic.counters`); a request's counters are drawn in one round trip. Their keys
carry the client's address as a hash tag, so that on a Redis Cluster a request's counters are in
one slot, where one script draws them all: a session's budget is thus counted on each address it
comes from (a session moving between addresses starts afresh on the new one). Should Redis
fail, the request goes through uncounted: it finds the store down too and gets its 503 there, so
counting in memory meanwhile would protect nothing. A refused request gets a 429 with
Retry-After, the seconds until its window ends (only then: a budget's state on every answer
would cost a round trip each). Once a client is refused on a budget, its later requests on it
are refused at the door until the window ends (`webapp.traffic.gate`), at next to no cost.
Behind the door, the requests a process runs at once are let in fairly across client addresses
(`webapp.traffic.fair_queue`).

The `limits` library reads the budgets' texts ("40/second;600/minute") and names each window's
counter; the counting itself is `webapp.traffic.counters`, which draws all of a request's counters
at once. Flask-Limiter, the glue this replaced, took a sixth of a move's CPU (a check before
every request for limits no route here has, the decorated limits resolved again on each call)
and a round trip per counter: four a move with the default budgets.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, wraps

from flask import current_app, request, session
from limits import RateLimitItem, parse_many
from werkzeug.exceptions import TooManyRequests

from webapp.store.errors import STORE_ERRORS, fault_text
from webapp.traffic.counters import Draw
from webapp.traffic.gate import ADDRESS, BUDGET_ATTRIBUTE, SESSION

#: The first part of every counter's key.
KEY_PREFIX = "limit"
ADDRESS_SUFFIX = "-address"
#: Where an app keeps its counters (`webapp.traffic.counters`), and its gate.
COUNTERS, GATE = "budget_counters", "refusal_gate"
log = logging.getLogger(__name__)


def session_key() -> str:
    """Each browser session's own budget, kept through a new game's fresh session id."""
    token = session.get("csrf_token")
    if isinstance(token, str):
        return "session:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return f"session:{session.sid}"


def client_address() -> str:
    """The client's address (the proxies' hops already taken off in front: `webapp.wsgi_stack`)."""
    return request.remote_addr or "127.0.0.1"


def scaled(limit: str, factor: int) -> str:
    """`limit` with `factor` times the requests in each of its windows."""
    return ";".join(f"{item.amount * factor}/{item.multiples} {item.GRANULARITY.name}"
                    for item in parse_many(limit))


@lru_cache(maxsize=64)
def _items(limit: str, factor: int) -> tuple[RateLimitItem, ...]:
    """The windows of `limit`, each with `factor` times its requests."""
    return tuple(parse_many(scaled(limit, factor) if factor != 1 else limit))


@dataclass(frozen=True)
class Counter:
    """One count a budget keeps: of the limit the setting `setting` names, per session or per
    address (`kind`), under the name `scope` (None: the route's endpoint); with `multiple`, the
    setting of how many times the limit's requests it allows."""

    setting: str
    scope: str | None
    kind: str  # SESSION or ADDRESS
    multiple: str | None = None

    def draws(self) -> list[tuple[RateLimitItem, str, str]]:
        """This request's (window, key, scope) to count."""
        config = current_app.config
        key = session_key() if self.kind == SESSION else client_address()
        scope = self.scope or request.endpoint or ""
        factor = config[self.multiple] if self.multiple else 1
        return [(item, key, scope) for item in _items(config[self.setting], factor)]


def budget(*counters: Counter, cost: Callable[[], int] | None = None
           ) -> Callable[[Callable], Callable]:
    """A decorator drawing `cost()` (1 by default) on each of `counters` before the view runs,
    shortest window first; the first window it would overdraw refuses the request with a 429."""
    names = {counter.scope.removesuffix(ADDRESS_SUFFIX) for counter in counters if counter.scope}
    name = names.pop() if len(names) == 1 else None  # the gate's name for the budget

    def budgeted(view: Callable) -> Callable:
        @wraps(view)
        def limited(*args: object, **kwargs: object) -> object:
            _draw(counters, cost() if cost else 1)
            return view(*args, **kwargs)
        if name:
            setattr(limited, BUDGET_ATTRIBUTE, name)
        return limited
    return budgeted


def _draw(counters: tuple[Counter, ...], cost: int) -> None:
    """Count this request on every window of `counters`, shortest first, in one round trip,
    stopping at the first it overdraws; uncounted if the counters' store fails (see the
    module's docstring)."""
    draws = sorted(((item, key, scope, counter.kind) for counter in counters
                    for item, key, scope in counter.draws()), key=lambda draw: draw[0])
    counters = current_app.extensions[COUNTERS]
    prefix = f"{KEY_PREFIX}/{{{client_address()}}}"  # one slot per address (see above)
    try:
        overdrawn = counters.draw(
            [Draw(item.key_for(prefix, key, scope), item.get_expiry(), item.amount)
             for item, key, scope, _kind in draws], cost)
    except STORE_ERRORS as fault:
        log.warning("rate limits not counted (%s): %s", counters.where, fault_text(fault))
        return
    if overdrawn is not None:
        _item, key, scope, kind = draws[overdrawn.index]
        _remember_refusal(scope, kind, key, overdrawn.ends)
        raise TooManyRequests(retry_after=max(1, round(overdrawn.ends - time.time())))


def _remember_refusal(scope: str, kind: str, key: str, ends: float) -> None:
    """Let the gate refuse this client on this budget until the window ends."""
    client = key if kind == ADDRESS else request.cookies.get(
        current_app.config["SESSION_COOKIE_NAME"], "")
    if client:
        current_app.extensions[GATE].remember(
            scope.removesuffix(ADDRESS_SUFFIX), kind, client, ends)


def _per_session_and_address(setting: str, scope: str) -> tuple[Counter, Counter]:
    """The budget `setting` per session, and its multiple per address, named `scope`."""
    return (Counter(setting, scope, SESSION),
            Counter(setting, scope + ADDRESS_SUFFIX, ADDRESS, "ADDRESS_BUDGET_SESSIONS"))


_GAME = _per_session_and_address("MOVE_RATE_LIMIT", "game")
game_budget = budget(*_GAME)


def game_budget_costing(cost: Callable[[], int]) -> Callable[[Callable], Callable]:
    """`game_budget`, drawing `cost()` from it for each request."""
    return budget(*_GAME, cost=cost)


solver_budget = budget(*_per_session_and_address("SOLVER_RATE_LIMIT", "solver"))
review_budget = budget(*_per_session_and_address("REVIEW_RATE_LIMIT", "review"))
leaderboard_budget = budget(*_per_session_and_address("RECORDS_RATE_LIMIT", "records"))
page_budget = budget(Counter("PAGE_RATE_LIMIT", "page", ADDRESS))
history_budget = budget(Counter("HISTORY_RATE_LIMIT", None, ADDRESS))  # each route its own

