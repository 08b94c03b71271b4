"""The two session stores, Redis and the filesystem, each with its lock and fail-fast faults.

`build_session_interface(app)` picks one from ``SESSION_BACKEND``:

- ``redis``: Flask-Session's RedisSessionInterface on a fail-fast client; a write goes through
  only while this request still holds the game's lock.
- ``filesystem``: Flask-Session's CacheLib interface on a cachelib FileSystemCache in
  SESSION_FILE_DIR, holding at most SESSION_STORE_MAX_ENTRIES games (past that, expired games
  go first, then those closest to expiry); a refused write raises instead of passing silently.
"""

from __future__ import annotations

import os
from datetime import timedelta

from cachelib.file import FileSystemCache
from flask import Flask
from flask_session.cachelib import CacheLibSessionInterface
from flask_session.redis import RedisSessionInterface
from redis import Redis

from webapp.store.errors import StoreWriteFailed
from webapp.store.file_cache import CountedFileCache
from webapp.store.locked_session import LockedSession, LockingSessionInterface
from webapp.store.locks import FileLocks, RedisHeldLock, RedisLocks
from webapp.store.redis_client import redis_client

_SET_IF_HELD = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('set', KEYS[2], ARGV[2], 'EX', ARGV[3])
return 1
"""


class LockedRedisSessionInterface(LockingSessionInterface, RedisSessionInterface):
    """Sessions in Redis, locked per game; a write is refused once our lock has expired."""

    def __init__(self, app: Flask, client: Redis, lock_ttl: float, lock_wait: float) -> None:
        super().__init__(app, client=client, **_common_options(app))
        self.locks = RedisLocks(client, ttl=lock_ttl, wait=lock_wait)
        self.set_if_held = client.register_script(_SET_IF_HELD)

    def _upsert_session(
        self, session_lifetime: timedelta, session: LockedSession, store_id: str
    ) -> None:
        held = session.held
        if not isinstance(held, RedisHeldLock):  # a new visitor's fresh id: nobody else has it
            super()._upsert_session(session_lifetime, session, store_id)
            return
        data = self.serializer.encode(session)
        lifetime = int(session_lifetime.total_seconds())
        if not self.set_if_held(keys=[held.key, store_id], args=[held.token, data, lifetime]):
            raise StoreWriteFailed(f"lock on {store_id} expired before the write")


class LockedFileSessionInterface(LockingSessionInterface, CacheLibSessionInterface):
    """Sessions as files in one directory, locked per game with flock on a sibling directory."""

    def __init__(self, app: Flask, cache: FileSystemCache, lock_dir: str, lock_wait: float) -> None:
        super().__init__(app, client=cache, **_common_options(app))
        self.locks = FileLocks(lock_dir, wait=lock_wait)

    def _upsert_session(
        self, session_lifetime: timedelta, session: LockedSession, store_id: str
    ) -> None:
        lifetime = int(session_lifetime.total_seconds())
        if not self.cache.set(store_id, dict(session), timeout=lifetime):
            raise StoreWriteFailed(f"could not write {store_id}")


def _common_options(app: Flask) -> dict[str, object]:
    return {
        "key_prefix": app.config.get("SESSION_KEY_PREFIX", "session:"),
        "permanent": app.config.get("SESSION_PERMANENT", True),
    }


def build_session_interface(app: Flask) -> LockingSessionInterface:
    """The locked session interface that app.config asks for (ConfigError if it cannot be)."""
    config = app.config
    wait = config["SESSION_LOCK_WAIT"]
    if config["SESSION_BACKEND"] == "redis":
        client = redis_client(config["REDIS_URL"], config["REDIS_TIMEOUT"])
        return LockedRedisSessionInterface(app, client, config["SESSION_LOCK_TTL"], wait)
    directory = config.get("SESSION_FILE_DIR") or os.path.join(app.instance_path, "sessions")
    directory = os.path.normpath(directory)
    count_lock = FileLocks(f"{directory}-locks/count", stripes=1, wait=wait)
    cache = CountedFileCache(directory, count_lock, threshold=config["SESSION_STORE_MAX_ENTRIES"])
    return LockedFileSessionInterface(app, cache, f"{directory}-locks", wait)
