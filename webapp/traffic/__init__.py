"""Traffic control: how much each client may ask for, and in what order requests are served.

- `budgets`: the rate limits each route declares beside it, counted per session and per client
  address; a request over its budget gets a 429 with Retry-After.
- `counters`: where the budgets' counts live (in Redis with the games, or in an SQLite file
  beside the game database), every worker process sharing them.
- `gate`: a client that a budget refused is refused at the door, at next to no cost, until the
  window that refused it ends.
- `fair_queue`: the requests a process runs at once are let in fairly across client addresses.

The gate and the queue are WSGI middleware: `webapp.wsgi_stack` puts them in front of the app,
in the order a request meets them.
"""

from __future__ import annotations

from flask import Flask

from webapp.store import REDIS, database_path
from webapp.traffic.budgets import COUNTERS
from webapp.traffic.counters import Counters, RedisCounters, SqliteCounters


def init_traffic(app: Flask) -> None:
    """Count the app's budgets in Redis when the app keeps its games there, else in an SQLite
    file beside the database."""
    config = app.config
    counters: Counters
    if config["SESSION_BACKEND"] == "redis":
        counters = RedisCounters(app.extensions[REDIS])
    else:
        path = database_path(app)
        counters = SqliteCounters(path.with_name(f"{path.stem}-limits{path.suffix}"),
                                  config["SQLITE_BUSY_TIMEOUT"])
    app.extensions[COUNTERS] = counters
