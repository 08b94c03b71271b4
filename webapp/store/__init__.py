"""The store: where games are kept between requests and visits.

Each game is a record (``game_record``) with an unguessable id: the game in one saved text (its
whole history, the position to resume from as its end), the bookkeeping around it, and beside it the text of its review if one was
asked for (``webapp.review``); the browser's session (Flask-Session, ``sessions``)
holds only which game is its current one and the ids of its earlier games. Two backends offer
both, behind what every game store offers (``game_store``): SQLite in the instance folder, the
embedded default for one host (``sqlite_db``, ``sqlite_games``, ``sqlite_sessions``), and Redis
for many processes and hosts (``SESSION_BACKEND=redis``: ``redis_client``, clients that fail
fast, to one server, a Sentinel-watched primary or a cluster; ``redis_startup``, what is checked
before the first request; ``redis_writes``, writes that wait for replicas;
``redis_games``, ``redis_sessions``). Writes are compare-and-set on
a version, so there are no locks to go stale; what is kept and what goes first is
``retention``; a fault is a 503 with nothing written (``errors``). The leaderboard
(``webapp.leaderboard``) keeps its table in the same store, through classes of its own.
``operations``: the operator's ``flask`` commands (backup and check of the SQLite database).
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app

from webapp.store.game_store import GameStore
from webapp.store.redis_client import redis_client
from webapp.store.redis_games import RedisGames
from webapp.store.redis_sessions import RedisSessions
from webapp.store.redis_startup import check_at_start
from webapp.store.redis_writes import Writes
from webapp.store.retention import Retention
from webapp.store.sessions import install_sessions
from webapp.store.sqlite_db import Database
from webapp.store.sqlite_games import SqliteGames
from webapp.store.sqlite_sessions import SqliteSessions

DATABASE_FILE_NAME = "games.sqlite3"
#: Where an app on Redis keeps its one client, which the counters and the review queue share.
REDIS = "redis"


def init_store(app: Flask) -> None:
    """Attach the configured store: the games (``games()``) and the session interface."""
    config = app.config
    config.update(SESSION_PERMANENT=True, SESSION_REFRESH_EACH_REQUEST=False,
                  SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax")
    retention = Retention(played_lifetime=config["SESSION_LIFETIME_DAYS"] * 86400.0,
                          max_entries=config["SESSION_STORE_MAX_ENTRIES"])
    if config["SESSION_BACKEND"] == "redis":
        client = app.extensions[REDIS] = redis_client(config)
        check_at_start(client, config["REDIS_WAIT_REPLICAS"])
        writes = Writes(client, config["REDIS_WAIT_REPLICAS"], config["REDIS_WAIT_TIMEOUT"])
        app.extensions["games"] = RedisGames(writes, retention)
        install_sessions(app, RedisSessions(app, writes, retention))
        return
    database = Database(database_path(app), busy_timeout=config["SQLITE_BUSY_TIMEOUT"])
    app.extensions["games"] = SqliteGames(database, retention)
    install_sessions(app, SqliteSessions(app, database, retention))


def database_path(app: Flask) -> Path:
    """Where the embedded store's SQLite file is (SQLITE_PATH, or in the instance folder)."""
    return Path(app.config.get("SQLITE_PATH") or Path(app.instance_path) / DATABASE_FILE_NAME)


def games() -> GameStore:
    """The current app's game store."""
    return current_app.extensions["games"]
