"""Configuration: defaults, overridden by environment variables, overridden by the factory's mapping.

Environment variables:
    SECRET_KEY                signs CSRF tokens; when unset, a random one is generated once and
                              kept in the instance folder (``secret_key``) so restarts keep sessions.
    SESSION_LIFETIME_DAYS     sliding session lifetime (default 30): every request that stores
                              the game pushes its expiry this many days further.
    SESSION_STORE_MAX_ENTRIES how many sessions the embedded file store holds before it prunes
                              (default 250000; expired sessions go first).
    SOLVER_RATE_LIMIT         solver requests allowed per session (default "10/second;2000/hour":
                              auto-play at full speed for a few minutes, not a flood).
    SOLVER_WARM_UP            "0" skips compiling the solver at start-up (default "1").

The session store, game locks and rate limits read theirs in ``environment`` (SESSION_BACKEND,
REDIS_URL, ...); production's extra checks are in ``production``.
"""

import os
import secrets
from datetime import timedelta
from pathlib import Path

from flask import Flask

from .environment import deployment_settings

LANGUAGES = ("en", "pl", "ja")
SECRET_FILE_NAME = "secret_key"


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def defaults() -> dict:
    """Settings read from the environment, falling back to the documented defaults."""
    return {
        "SESSION_LIFETIME_DAYS": _env_int("SESSION_LIFETIME_DAYS", 30),
        "SESSION_STORE_MAX_ENTRIES": _env_int("SESSION_STORE_MAX_ENTRIES", 250_000),
        "SOLVER_RATE_LIMIT": os.environ.get("SOLVER_RATE_LIMIT", "10/second;2000/hour"),
        "SOLVER_WARM_UP": os.environ.get("SOLVER_WARM_UP", "1") != "0",
        "SOLVER_SETTING": "fast",
        "LANGUAGES": LANGUAGES,
        # A CSRF token lives as long as the session: a tab left open for hours still works.
        "WTF_CSRF_TIME_LIMIT": None,
        "WTF_CSRF_HEADERS": ["X-CSRFToken"],
    }


def configure(app: Flask, overrides: dict | None) -> None:
    """Fill ``app.config`` from defaults, the environment and ``overrides``."""
    app.config.update(defaults())
    app.config.update(deployment_settings(os.environ))
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    app.config.update(overrides or {})
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
