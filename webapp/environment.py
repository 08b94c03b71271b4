"""Deployment settings from environment variables (12-factor): session store, locks, limits.

    SESSION_BACKEND     ``filesystem`` or ``redis``; defaults to ``redis`` when REDIS_URL is set
    REDIS_URL           ``redis://host:port/db``: sessions, game locks and rate-limit counters
    REDIS_TIMEOUT       seconds a Redis call may take before the player gets a 503 (default 0.25)
    SESSION_FILE_DIR    the filesystem store's directory (default: ``sessions`` in the instance
                        folder); game locks live in the sibling ``<dir>-locks``
    SESSION_LOCK_WAIT   seconds a request waits for its game's lock before a 503 (default 2)
    SESSION_LOCK_TTL    seconds after which a crashed worker's Redis lock expires (default 10)
    MOVE_RATE_LIMIT     game requests (moves, new game, keep playing) per session
                        (default ``30/second;1500/minute``)
    PAGE_RATE_LIMIT     page loads per client address (default ``120/minute``): each can start
                        a new session, so this also bounds how fast the store can be filled
    SESSION_COOKIE_SECURE  ``1``: cookies go over HTTPS only (production's default; a request
                        that came over HTTPS gets Secure cookies either way)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

BACKENDS = ("filesystem", "redis")


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


def deployment_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """The settings above, with their defaults, as Flask config keys."""
    redis_url = environ.get("REDIS_URL", "").strip()
    settings: dict[str, Any] = {
        "SESSION_BACKEND": environ.get("SESSION_BACKEND", "").strip().lower()
        or ("redis" if redis_url else "filesystem"),
        "REDIS_URL": redis_url or None,
        "REDIS_TIMEOUT": number(environ, "REDIS_TIMEOUT", 0.25),
        "SESSION_LOCK_WAIT": number(environ, "SESSION_LOCK_WAIT", 2.0),
        "SESSION_LOCK_TTL": number(environ, "SESSION_LOCK_TTL", 10.0),
        "MOVE_RATE_LIMIT": environ.get("MOVE_RATE_LIMIT", "30/second;1500/minute"),
        "PAGE_RATE_LIMIT": environ.get("PAGE_RATE_LIMIT", "120/minute"),
        "SESSION_COOKIE_SECURE": flag(environ, "SESSION_COOKIE_SECURE", False),
    }
    if environ.get("SESSION_FILE_DIR"):
        settings["SESSION_FILE_DIR"] = environ["SESSION_FILE_DIR"]
    return settings


def check_store(config: Mapping[str, Any]) -> None:
    """ConfigError unless the configured session store can be built."""
    backend = config["SESSION_BACKEND"]
    if backend not in BACKENDS:
        raise ConfigError(f"SESSION_BACKEND must be one of {BACKENDS}, got {backend!r}")
    if backend == "redis" and not config.get("REDIS_URL"):
        raise ConfigError("SESSION_BACKEND=redis needs REDIS_URL (redis://host:port/db)")
