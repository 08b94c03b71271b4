"""What the app checks of its Redis at start-up, before the first request.

Settings that lead nowhere useful stop the start-up with one line naming the cause (a
`ConfigError`): Sentinels none of which answers or that monitor no primary of the name given,
a cluster none of whose nodes answers, a ``REDIS_URL`` that leads to a replica (which would
refuse every write: a 503 on every page) or to a node of a cluster. A server that is merely
down starts the app all the same: it serves once the server is back.

What an operator should hear but that need not stop the app is a warning: a server that keeps
the games in memory only, or fewer replicas than ``REDIS_WAIT_REPLICAS`` (every move is then a
503 until enough of them connect).
"""

from __future__ import annotations

import logging

from redis import Redis
from redis.cluster import RedisCluster
from redis.exceptions import RedisError
from redis.sentinel import Sentinel

from webapp.config import ConfigError
from webapp.store.redis_client import Client, sentinels_of

log = logging.getLogger(__name__)


def check_at_start(client: Client, wait_replicas: int) -> None:
    """ConfigError for settings that cannot work (see the module's docstring); warnings for
    what an operator should know."""
    if sentinels := sentinels_of(client):
        check_sentinels(sentinels, client.connection_pool.service_name)
    elif not isinstance(client, RedisCluster):
        check_one_primary(client)
    warn_without_persistence(client)
    warn_without_replicas(client, wait_replicas)


def check_sentinels(sentinels: Sentinel, service: str) -> None:
    """ConfigError unless a Sentinel answers and knows a primary named `service`."""
    refusals, known = [], set()
    for sentinel in sentinels.sentinels:
        options = sentinel.connection_pool.connection_kwargs
        try:
            known |= set(sentinel.sentinel_masters())
        except RedisError as error:
            refusals.append(f"{options['host']}:{options['port']} ({_one_line(error)})")
    if len(refusals) == len(sentinels.sentinels):
        raise ConfigError(f"no Sentinel of REDIS_SENTINELS answers: {'; '.join(refusals)}")
    if service not in known:
        raise ConfigError(
            f"the Sentinels monitor no primary named {service!r} (REDIS_SENTINEL_SERVICE); "
            f"they monitor: {', '.join(sorted(known)) or 'none'}")


def check_one_primary(client: Redis) -> None:
    """ConfigError if REDIS_URL leads to a replica or to a cluster's node; nothing if the
    server cannot be reached now."""
    try:
        role = client.execute_command("ROLE")
        clustered = client.info("cluster").get("cluster_enabled") == 1
    except RedisError:
        return
    if _text(role[0]) in ("slave", "replica"):
        raise ConfigError(
            f"REDIS_URL leads to a replica (of {_text(role[1])}:{role[2]}), which refuses "
            "every write: point it at the primary, or set REDIS_SENTINELS to follow whichever "
            "server is the primary")
    if clustered:
        raise ConfigError("REDIS_URL leads to a node of a Redis Cluster: name the cluster's "
                          "nodes in REDIS_CLUSTER_NODES instead")


def persistence_warning(client: Client) -> str | None:
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


def warn_without_persistence(client: Client) -> None:
    """Log `persistence_warning` at start-up, if there is one."""
    warning = persistence_warning(client)
    if warning:
        log.warning(warning)


def warn_without_replicas(client: Client, wait_replicas: int) -> None:
    """Warn when a primary has fewer replicas than a move must wait for (nothing when it
    cannot be asked now)."""
    if not wait_replicas:
        return
    servers = ([client.get_redis_connection(node) for node in client.get_primaries()]
               if isinstance(client, RedisCluster) else [client])
    try:
        answers = [server.execute_command("ROLE") for server in servers]
    except RedisError:
        return
    fewest = min(len(role[2]) for role in answers)
    if fewest < wait_replicas:
        log.warning("REDIS_WAIT_REPLICAS is %d but a primary has %d replicas: moves are answered "
                    "503 until enough of them connect", wait_replicas, fewest)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _one_line(error: BaseException) -> str:
    """An error's message on one line."""
    return " ".join(str(error).split())
