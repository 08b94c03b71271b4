"""Redis clients that fail fast, for each shape of Redis the settings can name.

- One server, ``REDIS_URL``.
- The primary that Sentinels name, ``REDIS_SENTINELS`` and ``REDIS_SENTINEL_SERVICE``
  (redis-py's `Sentinel`): every new connection asks a Sentinel where the primary is, and a
  connection to one that died, or was turned into a replica, fails, so the next one asks again:
  the app follows a failover without a restart, answering 503 meanwhile.
- A cluster, ``REDIS_CLUSTER_NODES`` (redis-py's `RedisCluster`), which finds every node
  through the ones named and sends each command to the node that holds its key.

redis-py's defaults (5 s socket timeouts, retries with backoff) would hold every request for
seconds while Redis is down. Here each call gets `timeout` seconds and one immediate retry,
which is enough to reconnect a pooled connection that went stale when Redis restarted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from redis import Redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import RedisClusterException, RedisError
from redis.retry import Retry
from redis.sentinel import Sentinel, SentinelConnectionPool

from webapp.config import ConfigError

#: What the store, the counters and the review queue talk to, whichever the shape.
Client = Redis | RedisCluster


def fail_fast_options(timeout: float) -> dict[str, Any]:
    """Keyword arguments for redis.Redis / redis.from_url."""
    return {
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        "retry": Retry(NoBackoff(), 1),
        "health_check_interval": 30,
    }


def redis_client(config: Mapping[str, Any]) -> Client:
    """The client the settings name (see the module's docstring), with fail_fast_options. A
    cluster is reached at once, to learn its nodes (ConfigError naming why it cannot be); the
    other shapes connect on first use."""
    options = fail_fast_options(config["REDIS_TIMEOUT"])
    if config.get("REDIS_SENTINELS"):
        sentinels = Sentinel(config["REDIS_SENTINELS"], sentinel_kwargs=options, **options)
        return sentinels.master_for(config["REDIS_SENTINEL_SERVICE"])
    if config.get("REDIS_CLUSTER_NODES"):
        nodes = [ClusterNode(host, port) for host, port in config["REDIS_CLUSTER_NODES"]]
        try:
            return RedisCluster(startup_nodes=nodes, **options)
        except (RedisClusterException, RedisError) as error:
            message = " ".join(str(error).split())
            raise ConfigError(f"cannot reach the Redis Cluster of REDIS_CLUSTER_NODES: "
                              f"{message}") from None
    return Redis.from_url(config["REDIS_URL"], **options)


def sentinels_of(client: Client) -> Sentinel | None:
    """The Sentinels a client asks for its primary, if it is one that does."""
    pool = getattr(client, "connection_pool", None)
    return pool.sentinel_manager if isinstance(pool, SentinelConnectionPool) else None


def address(client: Client) -> str:
    """Where the client's server is, for logs (no credentials): ``redis://host:port/db``,
    ``unix://path``, ``sentinel://host:port,.../service`` or ``cluster://host:port,...``."""
    if isinstance(client, RedisCluster):
        return "cluster://" + ",".join(node.name for node in client.get_nodes())
    if sentinels := sentinels_of(client):
        named = ",".join(_host_port(sentinel.connection_pool.connection_kwargs)
                         for sentinel in sentinels.sentinels)
        return f"sentinel://{named}/{client.connection_pool.service_name}"
    options = client.connection_pool.connection_kwargs
    if "path" in options:
        return f"unix://{options['path']}"
    return f"redis://{_host_port(options)}/{options.get('db', 0)}"


def _host_port(options: Mapping[str, Any]) -> str:
    return f"{options.get('host')}:{options.get('port')}"
