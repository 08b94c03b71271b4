"""What can go wrong with the store, and the 503 the player sees when it does."""

from __future__ import annotations

import sqlite3

from redis.exceptions import RedisError
from werkzeug.exceptions import ServiceUnavailable


class WriteConflict(Exception):
    """Another request changed the game between our read and our write, every time we tried."""


#: Everything that means "the game could not be read or saved right now".
STORE_ERRORS: tuple[type[BaseException], ...] = (RedisError, sqlite3.Error, OSError, WriteConflict)


def fault_text(error: BaseException) -> str:
    """A store error as a log names it: its type and its message, which says where when the
    error knows ("ConnectionError: Error 111 connecting to 127.0.0.1:6379. Connection refused.").
    Not ``%r``: redis-py 8 gives only "network:ConnectionError" for that."""
    return f"{type(error).__name__}: {error}"


class StoreUnavailable(ServiceUnavailable):
    """503: the store is out of reach; nothing was written, and the page retries the request.

    The player's message is `webapp.errors.UNREACHABLE`, in their language."""


class SessionRenewed(StoreUnavailable):
    """503: the request's session id was replaced by a fresh one a moment ago (see
    `webapp.store.sessions`); answered as a moment without the store, so the page sends the
    request again, with the cookie that names the fresh id."""
