"""The app on a real Redis Cluster of three primaries: games, sessions and counters spread over
its nodes, each script on one slot; two instances serve one game; a game played to its end
enters the records table (one slot of its own, like the review queue's). The store's own tests
run on the cluster too (tests/store, tests/review, tests/traffic, and tests/scale's
concurrency tests through `any_app`)."""

from __future__ import annotations

import time

import pytest
import redis

from harness.redis_server import Cluster
from tests.leaderboard.leaderboard_support import enter, finish
from tests.scale.scale_support import Tab, production_app, replay, stored, stored_game
from tests.web_support import StoreView
from webapp.leaderboard.redis_table import TAG

pytestmark = pytest.mark.redis


def keys_by_node(cluster) -> dict[int, set[str]]:
    """Every primary's keys, by its port."""
    found = {}
    for server in cluster.servers:
        client = redis.Redis(port=server.port)
        if client.execute_command("ROLE")[0] == b"master":
            found[server.port] = {key.decode() for key in client.keys("*")}
    return found


def test_players_spread_over_the_primaries(cluster_app, redis_cluster):
    """Each player from an address of their own: the counters of one address share a slot."""
    players = []
    for number in range(12):
        client = cluster_app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"198.51.100.{number}"
        players.append(Tab(client))
    for player in players:
        direction = StoreView(cluster_app).game(player.sid).legal_moves()[0]
        assert player.move(direction, 1).headers["X-Seq"] == "1"
    held = keys_by_node(redis_cluster)
    assert len(held) == 3
    for kind in ("game:", "session:", "LIMITER/limit/"):
        assert sum(any(key.startswith(kind) for key in keys) for keys in held.values()) >= 2


def test_two_instances_on_a_cluster_serve_one_game(tmp_path, cluster_nodes):
    first, second = (production_app(tmp_path / name, SESSION_BACKEND="redis",
                                    REDIS_CLUSTER_NODES=cluster_nodes)
                     for name in ("first", "second"))
    player = Tab(first.test_client())
    tab = player.tab_on(second)
    start, moves = stored_game(first, player.sid), []
    for seq, served_by in enumerate([player, tab, player, tab], start=1):
        moves.append(StoreView(first).game(player.sid).legal_moves()[0])
        assert served_by.move(moves[-1], seq).headers["X-Seq"] == str(seq)
    assert stored(second, player.sid)["game"] == replay(start, moves).position


def test_a_finished_game_enters_the_records_table_on_a_cluster(cluster_app, redis_cluster):
    player = Tab(cluster_app.test_client())
    finish(player, StoreView(cluster_app))
    assert enter(player, "Ann").status_code == 303
    assert "Ann" in player.client.get("/records").text
    table_nodes = [port for port, keys in keys_by_node(redis_cluster).items()
                   if any(key.startswith(TAG) for key in keys)]
    assert len(table_nodes) == 1  # one slot: the table's scripts reach all of it


@pytest.mark.slow
def test_a_cluster_failover_loses_no_acknowledged_move(tmp_path):
    """Three primaries with two replicas each; REDIS_WAIT_REPLICAS=1. The primary holding the
    player's game is killed mid-play: its replicas elect one of them, the app (unrestarted)
    answers 503 meanwhile and then serves the page's resent move on the game it showed."""
    with Cluster(replicas=2) as cluster:
        app = production_app(tmp_path / "instance", SESSION_BACKEND="redis",
                             REDIS_CLUSTER_NODES=cluster.nodes, REDIS_WAIT_REPLICAS=1,
                             REDIS_TIMEOUT=1.0, REDIS_WAIT_TIMEOUT=0.5)
        player = Tab(app.test_client())
        start, moves = stored_game(app, player.sid), []
        for seq in range(1, 11):
            moves.append(StoreView(app).game(player.sid).legal_moves()[0])
            assert player.move(moves[-1], seq).status_code == 200
        holder = next(server for server in cluster.servers
                      if server.ask("CLUSTER", "COUNTKEYSINSLOT", server.ask(
                          "CLUSTER", "KEYSLOT", f"game:{player.game}")) != "0"
                      and "role:master" in server.ask("INFO", "replication"))
        holder.stop()
        moves.append(replay(start, moves).legal_moves()[0])
        deadline = time.monotonic() + 30
        while (answer := player.move(moves[-1], 11, retry=True)).status_code != 200:
            assert answer.status_code == 503 and time.monotonic() < deadline
            time.sleep(0.2)
        assert answer.headers["X-Seq"] == "11"
        assert stored(app, player.sid)["game"] == replay(start, moves).position
