"""Configuration, in one place: documented defaults, overridden by environment variables,
overridden by the mapping given to ``create_app`` (tests, benchmarks).

Environment variables (docs/deploy.md's table says the same):
    SECRET_KEY                signs CSRF tokens; when unset, development generates one once and
                              keeps it in the instance folder (``secret_key``). Production
                              insists on a strong one (``production``).
    SESSION_BACKEND           ``sqlite`` or ``redis``; ``redis`` when one of the three Redis
                              settings below is set
    REDIS_URL                 ``redis://host:port/db``: one Redis server keeps the games,
                              sessions and rate-limit counters
    REDIS_SENTINELS           ``host:port,host:port,...``: instead, the primary the Sentinels
                              name, followed through failovers; needs REDIS_SENTINEL_SERVICE,
                              the name they monitor it under
    REDIS_CLUSTER_NODES       ``host:port,host:port,...``: instead, a Redis Cluster (some of its
                              nodes; the others are found through them)
    REDIS_TIMEOUT             seconds a Redis call may take before the player gets a 503 (0.25)
    REDIS_WAIT_REPLICAS       a move is answered only once this many replicas hold it (0)
    REDIS_WAIT_TIMEOUT        seconds a write waits for them before the player gets a 503
                              (0.1; less than REDIS_TIMEOUT)
    SQLITE_PATH               the embedded database (default ``games.sqlite3`` in the instance
                              folder)
    SQLITE_BUSY_TIMEOUT       seconds a write waits for another one before a 503 (2)
    SESSION_STORE_MAX_ENTRIES most played games the embedded store keeps (250000), and as many
                              played sessions; unplayed ones have a tenth of that on top,
                              and each keeps its first ten minutes
    SESSION_LIFETIME_DAYS     sliding expiry (30): every move pushes a game's expiry, and its
                              session's, this far
    SESSION_COOKIE_SECURE     ``1``: cookies over HTTPS only (production's default)
    MOVE_RATE_LIMIT           moves, undos, new games, keep playing, per session
                              (40/second;600/minute)
    SOLVER_RATE_LIMIT         hints and auto-play's moves per session (15/second;900/minute:
                              auto-play's top speed, 10 a second, with room for requests that
                              reach the server unevenly)
    REVIEW_RATE_LIMIT         reviews asked for, per session (3/minute;20/hour)
    RECORDS_RATE_LIMIT        games entered in the records table, per session (5/minute;30/day)
    ADDRESS_BUDGET_SESSIONS   a client address gets this many sessions' budgets of moves, hints,
                              reviews and entries in the records table (4)
    FAIR_QUEUE_SLOTS          requests a worker process runs at once (2); more wait, and the
                              least served client address goes first
    REFUSAL_HOLD_THREADS      threads of a worker process that may hold a client that came back
                              while refused until its wait is over, a second at most (8)
    PAGE_RATE_LIMIT           page loads that can start a game, per client address (120/minute)
    HISTORY_RATE_LIMIT        replays, their steps, reviews, lists of games, per client address
                              (20/second;1200/minute)
    SOLVER_WARM_UP            ``0`` skips compiling the solver at start-up
    PROXY_HOPS                reverse proxies in front (0); set by ``production`` only

Given to ``create_app`` only:
    CLOCK                     the time the daily game's days are read from, a function giving
                              Unix seconds (``time.time``); tests move a fake one
    SOLVER_STRENGTH_FILE      the measured strength the solver page shows (default
                              ``webapp/pages/solver_strength.json``, which the strength bench
                              writes)
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from redis.connection import parse_url

BACKENDS = ("sqlite", "redis")
#: The settings that each select a Redis deployment; one of them, at most, is set.
REDIS_SHAPES = ("REDIS_URL", "REDIS_SENTINELS", "REDIS_CLUSTER_NODES")
REDIS_SCHEMES = ("redis", "rediss", "unix")
SECRET_FILE_NAME = "secret_key"


class ConfigError(RuntimeError):
    """A setting is missing or unusable; raised at start-up, never later."""


def flag(environ: Mapping[str, str], name: str, default: bool) -> bool:
    """An on/off value from environ[name] (1/true/yes/on or 0/false/no/off), or default."""
    raw = environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name} must be on or off (1/0), got {environ[name]!r}")


def number(environ: Mapping[str, str], name: str, default: float) -> float:
    """A positive number from environ[name], or default when unset."""
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None
    if value <= 0:
        raise ConfigError(f"{name} must be positive, got {raw!r}")
    return value


def count(environ: Mapping[str, str], name: str, default: int) -> int:
    """A whole number of at least 0 from environ[name], or default when unset."""
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise ConfigError(f"{name} must be a whole number (0, 1, 2...), got {raw!r}")
    return int(raw)


def addresses(environ: Mapping[str, str], name: str) -> list[tuple[str, int]] | None:
    """(host, port) pairs from environ[name], ``host:port,host:port`` (``[::1]:26379`` for an
    IPv6 address), or None when unset."""
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    found = []
    for item in raw.split(","):
        host, _, port = item.strip().rpartition(":")
        host = host.removeprefix("[").removesuffix("]")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ConfigError(f"{name} must be host:port,host:port,..., got {item.strip()!r}")
        found.append((host, int(port)))
    return found


def settings_from(environ: Mapping[str, str]) -> dict[str, Any]:
    """Every setting above, from environ or its default, as Flask config keys."""
    redis: dict[str, Any] = {
        "REDIS_URL": environ.get("REDIS_URL", "").strip() or None,
        "REDIS_SENTINELS": addresses(environ, "REDIS_SENTINELS"),
        "REDIS_SENTINEL_SERVICE": environ.get("REDIS_SENTINEL_SERVICE", "").strip() or None,
        "REDIS_CLUSTER_NODES": addresses(environ, "REDIS_CLUSTER_NODES"),
        "REDIS_TIMEOUT": number(environ, "REDIS_TIMEOUT", 0.25),
        "REDIS_WAIT_REPLICAS": count(environ, "REDIS_WAIT_REPLICAS", 0),
        "REDIS_WAIT_TIMEOUT": number(environ, "REDIS_WAIT_TIMEOUT", 0.1),
    }
    settings: dict[str, Any] = {
        "SESSION_BACKEND": environ.get("SESSION_BACKEND", "").strip().lower()
        or ("redis" if any(redis[shape] for shape in REDIS_SHAPES) else "sqlite"),
        **redis,
        "SESSION_STORE_MAX_ENTRIES": int(number(environ, "SESSION_STORE_MAX_ENTRIES", 250_000)),
        "SESSION_LIFETIME_DAYS": number(environ, "SESSION_LIFETIME_DAYS", 30),
        "SQLITE_BUSY_TIMEOUT": number(environ, "SQLITE_BUSY_TIMEOUT", 2.0),
        "SESSION_COOKIE_SECURE": flag(environ, "SESSION_COOKIE_SECURE", False),
        "MOVE_RATE_LIMIT": environ.get("MOVE_RATE_LIMIT", "40/second;600/minute"),
        "SOLVER_RATE_LIMIT": environ.get("SOLVER_RATE_LIMIT", "15/second;900/minute"),
        "PAGE_RATE_LIMIT": environ.get("PAGE_RATE_LIMIT", "120/minute"),
        "HISTORY_RATE_LIMIT": environ.get("HISTORY_RATE_LIMIT", "20/second;1200/minute"),
        "REVIEW_RATE_LIMIT": environ.get("REVIEW_RATE_LIMIT", "3/minute;20/hour"),
        "RECORDS_RATE_LIMIT": environ.get("RECORDS_RATE_LIMIT", "5/minute;30/day"),
        "ADDRESS_BUDGET_SESSIONS": int(number(environ, "ADDRESS_BUDGET_SESSIONS", 4)),
        "FAIR_QUEUE_SLOTS": int(number(environ, "FAIR_QUEUE_SLOTS", 2)),
        "REFUSAL_HOLD_THREADS": int(number(environ, "REFUSAL_HOLD_THREADS", 8)),
        "SOLVER_WARM_UP": flag(environ, "SOLVER_WARM_UP", True),
        "SOLVER_SETTING": "fast",
        # A CSRF token lives as long as the session: a tab left open for hours still works.
        "WTF_CSRF_TIME_LIMIT": None,
        "WTF_CSRF_HEADERS": ["X-CSRFToken"],
    }
    if environ.get("SECRET_KEY"):
        settings["SECRET_KEY"] = environ["SECRET_KEY"]
    if environ.get("SQLITE_PATH"):
        settings["SQLITE_PATH"] = environ["SQLITE_PATH"]
    return settings


def check_store(config: Mapping[str, Any]) -> None:
    """ConfigError unless the configured session store can be built."""
    backend = config["SESSION_BACKEND"]
    if backend not in BACKENDS:
        raise ConfigError(f"SESSION_BACKEND must be one of {BACKENDS}, got {backend!r}")
    if backend == "redis":
        check_redis(config)


def check_redis(config: Mapping[str, Any]) -> None:
    """ConfigError unless exactly one Redis deployment is named, in a form that can be used."""
    shapes = [shape for shape in REDIS_SHAPES if config.get(shape)]
    if len(shapes) != 1:
        raise ConfigError("SESSION_BACKEND=redis needs one of REDIS_URL (redis://host:port/db), "
                          "REDIS_SENTINELS or REDIS_CLUSTER_NODES"
                          + (f", not {' and '.join(shapes)}" if shapes else ""))
    if config.get("REDIS_URL"):
        check_redis_url(config["REDIS_URL"])
    if config.get("REDIS_SENTINELS") and not config.get("REDIS_SENTINEL_SERVICE"):
        raise ConfigError("REDIS_SENTINELS needs REDIS_SENTINEL_SERVICE, the name the Sentinels "
                          "monitor the primary under")
    if config.get("REDIS_WAIT_TIMEOUT", 0.1) >= config.get("REDIS_TIMEOUT", 0.25):
        raise ConfigError("REDIS_WAIT_TIMEOUT must be shorter than REDIS_TIMEOUT, the longest a "
                          "Redis call may take")


def check_redis_url(url: str) -> None:
    """ConfigError unless `url` names one Redis server (never quoting it: it may hold a
    password)."""
    scheme, separator, rest = url.partition("://")
    others = ("; for Sentinel set REDIS_SENTINELS and REDIS_SENTINEL_SERVICE, for a cluster "
              "REDIS_CLUSTER_NODES")
    if not separator or scheme.lower() not in REDIS_SCHEMES:
        raise ConfigError(f"REDIS_URL must be redis://host:port/db (or rediss://, unix://), "
                          f"not {scheme or 'without a scheme'}://...{others}")
    if "," in rest.partition("/")[0]:
        raise ConfigError(f"REDIS_URL names one server, not several{others}")
    try:
        parse_url(url)
    except ValueError as error:
        raise ConfigError(f"REDIS_URL cannot be read: {error}") from None


def configure(app: Flask, overrides: Mapping[str, Any] | None) -> None:
    """Fill ``app.config`` from the environment (with defaults), then ``overrides``."""
    app.config.update(settings_from(os.environ))
    app.config.update(overrides or {})
    check_store(app.config)
    app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(days=app.config["SESSION_LIFETIME_DAYS"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))


def _instance_secret(instance: Path) -> str:
    """Read the development secret from the instance folder, creating it on first use."""
    instance.mkdir(parents=True, exist_ok=True)
    path = instance / SECRET_FILE_NAME
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as file:
        file.write(secrets.token_hex(32))
    return path.read_text().strip()
