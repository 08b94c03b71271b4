"""Redis clients that fail fast: an outage becomes a quick 503, not a long hang.

redis-py's defaults (5 s socket timeouts, ten retries with backoff) would hold every request for
seconds while Redis is down. Here each call gets `timeout` seconds and one immediate retry, which
is enough to reconnect a pooled connection that went stale when Redis restarted.

At start-up the app warns when the server keeps nothing on disk (`warn_without_persistence`).
"""

from __future__ import annotations

import logging
from typing import Any

from redis import Redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

log = logging.getLogger(__name__)


def fail_fast_options(timeout: float) -> dict[str, Any]:
    """Keyword arguments for redis.Redis / redis.from_url."""
    return {
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        "retry": Retry(NoBackoff(), 1),
        "health_check_interval": 30,
    }


def redis_client(url: str, timeout: float) -> Redis:
    """A client for url with fail_fast_options."""
    return Redis.from_url(url, **fail_fast_options(timeout))


def address(client: Redis) -> str:
    """Where the client's server is, for logs: ``redis://host:port/db`` (no credentials), or
    ``unix://path``."""
    options = client.connection_pool.connection_kwargs
    if "path" in options:
        return f"unix://{options['path']}"
    return f"redis://{options.get('host')}:{options.get('port')}/{options.get('db', 0)}"


def persistence_warning(client: Redis) -> str | None:
    """What an operator should hear about the Redis server's persistence: None when it keeps an
    append-only file (AOF) or RDB snapshots, else why a restart would lose every game. Asked
    with CONFIG GET; a server that refuses it (a managed Redis, a renamed command) or cannot be
    reached is said so too, since nothing could be checked."""
    try:
        appendonly = client.config_get("appendonly").get("appendonly")
        save = client.config_get("save").get("save")
    except RedisError as error:
        return f"Redis persistence could not be checked ({error}): make sure it keeps AOF or RDB"
    if appendonly == "yes" or save:
        return None
    return ("Redis keeps the games in memory only (appendonly no, save \"\"): a restart loses"
            " every game and session; run it with appendonly yes (see docs/deploy.md)")


def warn_without_persistence(client: Redis) -> None:
    """Log `persistence_warning` at start-up, if there is one."""
    warning = persistence_warning(client)
    if warning:
        log.warning(warning)
