"""Redis clients that fail fast: an outage becomes a quick 503, not a long hang.

redis-py's defaults (5 s socket timeouts, ten retries with backoff) would hold every request for
seconds while Redis is down. Here each call gets `timeout` seconds and one immediate retry, which
is enough to reconnect a pooled connection that went stale when Redis restarted.
"""

from __future__ import annotations

from typing import Any

from redis import Redis
from redis.backoff import NoBackoff
from redis.retry import Retry


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
