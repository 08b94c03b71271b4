"""What can go wrong with the session store, and the 503 the player sees when it does."""

from __future__ import annotations

from redis.exceptions import RedisError
from werkzeug.exceptions import ServiceUnavailable

from webapp.store.locks import LockTimeout


class StoreWriteFailed(Exception):
    """The store refused a write: disk full or unwritable, or our lock on the game expired."""


#: Everything that means "the game could not be read, locked or saved right now".
STORE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError, LockTimeout, StoreWriteFailed)


class StoreUnavailable(ServiceUnavailable):
    """503: the game server's store is out of reach; the page retries the same request.

    The player's message is `webapp.errors.UNREACHABLE`, in their language."""
