"""Start-up against a Redis that cannot serve the app stops with one line naming the cause:
Sentinels that do not answer or know no such primary, a cluster that cannot be reached, a
REDIS_URL that leads to a replica or to a cluster's node. Fewer replicas than a move waits for
is a warning."""

from __future__ import annotations

import logging

import pytest

from harness.ports import free_port
from harness.redis_server import Cluster, RedisServer, Sentinels
from tests.scale.scale_support import production_app
from webapp.config import ConfigError


def refusal(tmp_path, **settings: object) -> str:
    """The ConfigError's message when an app is built with these settings."""
    with pytest.raises(ConfigError) as refused:
        production_app(tmp_path / "instance", SESSION_BACKEND="redis", **settings)
    message = str(refused.value)
    assert "\n" not in message
    return message


def test_sentinels_that_do_not_answer_are_named(tmp_path):
    ports = free_port(), free_port()
    said = refusal(tmp_path, REDIS_SENTINELS=[("127.0.0.1", port) for port in ports],
                   REDIS_SENTINEL_SERVICE="games")
    assert said.startswith("no Sentinel of REDIS_SENTINELS answers: ")
    assert all(f"127.0.0.1:{port} (Error 111 connecting" in said for port in ports)


def test_a_cluster_that_cannot_be_reached_is_named(tmp_path):
    said = refusal(tmp_path, REDIS_CLUSTER_NODES=[("127.0.0.1", free_port())])
    assert said.startswith("cannot reach the Redis Cluster of REDIS_CLUSTER_NODES: ")


@pytest.mark.redis
def test_sentinels_that_monitor_another_name_are_refused(tmp_path):
    with RedisServer() as primary, Sentinels(primary.port, service="games") as sentinels:
        said = refusal(tmp_path, REDIS_SENTINELS=sentinels.nodes,
                       REDIS_SENTINEL_SERVICE="game")
    assert said == ("the Sentinels monitor no primary named 'game' (REDIS_SENTINEL_SERVICE); "
                    "they monitor: games")


@pytest.mark.redis
def test_a_redis_url_leading_to_a_replica_is_refused(tmp_path):
    """It used to start cleanly, then answer 503 to every page (ReadOnlyError)."""
    with RedisServer() as primary, RedisServer(
            replicaof=("127.0.0.1", str(primary.port))) as replica:
        said = refusal(tmp_path, REDIS_URL=replica.url)
    assert said.startswith(f"REDIS_URL leads to a replica (of 127.0.0.1:{primary.port}), which "
                           "refuses every write")


@pytest.mark.redis
def test_a_redis_url_leading_to_a_cluster_node_is_refused(tmp_path):
    with Cluster() as cluster:
        said = refusal(tmp_path, REDIS_URL=cluster.servers[0].url)
    assert said.startswith("REDIS_URL leads to a node of a Redis Cluster: name the cluster's "
                           "nodes in REDIS_CLUSTER_NODES")


@pytest.mark.redis
def test_fewer_replicas_than_a_move_waits_for_is_a_warning(tmp_path, redis_url, caplog):
    with caplog.at_level(logging.WARNING, logger="webapp.store.redis_startup"):
        production_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=redis_url,
                       REDIS_WAIT_REPLICAS=1)
    assert ("REDIS_WAIT_REPLICAS is 1 but a primary has 0 replicas: moves are answered 503 "
            "until enough of them connect") in caplog.text
