"""Per-session locks: requests for one game run one at a time, across processes and hosts.

Two kinds, one interface (`acquire(name) -> held lock`, then `held.release()`):

- `RedisLocks`: a key set with ``SET NX PX`` holding a random token; only the holder's token
  deletes it, and it expires by itself if its holder dies.
- `FileLocks`: ``flock(2)`` on one of a fixed set of lock files; the kernel drops the lock if its
  process dies, and a fixed set means lock files never pile up.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import secrets
import time
from collections.abc import Callable
from typing import Protocol, TypeVar

from redis import Redis

T = TypeVar("T")


class LockTimeout(Exception):
    """Another request kept the session locked for longer than we are prepared to wait."""


class HeldLock(Protocol):
    """A lock this request holds."""

    def release(self) -> None:
        """Give the lock up; harmless if it has already been given up or has expired."""


class Locks(Protocol):
    """A family of named locks."""

    def acquire(self, name: str) -> HeldLock:
        """Wait for the lock called name; LockTimeout if it does not come in time."""


def wait_for(attempt: Callable[[], T | None], wait: float) -> T:
    """Call attempt() until it returns something, backing off from 1 ms up to 20 ms.

    Raises LockTimeout once `wait` seconds have passed without success.
    """
    deadline = time.monotonic() + wait
    pause = 0.001
    while (result := attempt()) is None:
        if time.monotonic() >= deadline:
            raise LockTimeout
        time.sleep(pause)
        pause = min(pause * 2, 0.02)
    return result


_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class RedisHeldLock:
    """A Redis lock key holding our token."""

    def __init__(self, locks: RedisLocks, key: str, token: str) -> None:
        self.locks, self.key, self.token = locks, key, token

    def release(self) -> None:
        """Delete the key, but only if it still holds our token (it may have expired)."""
        self.locks.release_script(keys=[self.key], args=[self.token])


class RedisLocks:
    """Locks stored in Redis; `ttl` bounds how long a crashed holder can block a game."""

    def __init__(self, client: Redis, ttl: float = 10.0, wait: float = 2.0) -> None:
        self.client, self.ttl_ms, self.wait = client, int(ttl * 1000), wait
        self.release_script = client.register_script(_RELEASE)

    def acquire(self, name: str) -> RedisHeldLock:
        """SET lock:<name> <token> NX PX ttl, retried until it succeeds or `wait` runs out."""
        key, token = f"lock:{name}", secrets.token_hex(16)

        def attempt() -> RedisHeldLock | None:
            if self.client.set(key, token, nx=True, px=self.ttl_ms):
                return RedisHeldLock(self, key, token)
            return None

        return wait_for(attempt, self.wait)


class FileHeldLock:
    """An open lock file with an exclusive flock on it."""

    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd

    def release(self) -> None:
        """Close the file, which drops the flock."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class FileLocks:
    """flock(2) on `stripes` lock files in `directory`; names are hashed onto them.

    Two games that share a stripe merely wait for each other; the number of files stays fixed.
    """

    def __init__(self, directory: str, stripes: int = 256, wait: float = 2.0) -> None:
        os.makedirs(directory, exist_ok=True)
        self.directory, self.stripes, self.wait = directory, stripes, wait

    def path_for(self, name: str) -> str:
        """The lock file that stands for name."""
        stripe = int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big") % self.stripes
        return os.path.join(self.directory, f"{stripe:04d}.lock")

    def acquire(self, name: str) -> FileHeldLock:
        """Open the stripe's file and flock it (non-blocking, retried until `wait` runs out)."""
        fd = os.open(self.path_for(name), os.O_RDWR | os.O_CREAT, 0o600)

        def attempt() -> FileHeldLock | None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return None
            return FileHeldLock(fd)

        try:
            return wait_for(attempt, self.wait)
        except BaseException:
            os.close(fd)
            raise
