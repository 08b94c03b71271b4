"""Redis with Sentinel: two app instances follow the primary through a failover, without a
restart, answering 503 with Retry-After meanwhile; with REDIS_WAIT_REPLICAS, a failover after
the replication link was held back, as a partition holds it, loses no acknowledged move.

Real servers on loopback: a primary, its replicas (reaching it through a proxy that can hold
the bytes), three Sentinels that call the primary down after 300 ms of silence."""

from __future__ import annotations

import time

import pytest

from harness.redis_server import replicated
from tests.scale.scale_support import Tab, production_app, replay, stored, stored_game
from tests.web_support import StoreView

pytestmark = [pytest.mark.redis, pytest.mark.slow]

#: Longest a failover may take, the Sentinels' 300 ms included, before the instances serve
#: again (on a loaded machine a failover takes 1.5 to 4 s).
FOLLOW_SECONDS = 20


def legal_move(app, sid: str) -> str:
    return StoreView(app).game(sid).legal_moves()[0]


def until_served(tab: Tab, direction: str, seq: int) -> tuple[float, list[int]]:
    """Send the same move (as the page resends it) until it is answered 200: the seconds it
    took and every status met before (each 503 must carry Retry-After)."""
    started, statuses = time.monotonic(), []
    while (answer := tab.move(direction, seq, retry=True)).status_code != 200:
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
        statuses.append(answer.status_code)
        assert time.monotonic() - started < FOLLOW_SECONDS, f"still {statuses[-1]}"
        time.sleep(0.1)
    assert answer.headers["X-Seq"] == str(seq)
    return time.monotonic() - started, statuses


def test_two_instances_follow_a_new_primary_without_a_restart(tmp_path):
    with replicated(replicas=1) as redis:
        first, second = (production_app(tmp_path / name, **redis.settings())
                         for name in ("first", "second"))
        player = Tab(first.test_client())
        tab = player.tab_on(second)
        start, moves = stored_game(first, player.sid), []
        for seq, served_by in enumerate([player, tab] * 5, start=1):
            moves.append(legal_move(first, player.sid))
            assert served_by.move(moves[-1], seq).status_code == 200

        # Without REDIS_WAIT_REPLICAS a move is answered before the replica has it (on a loaded
        # machine six moves were still in flight): the replica takes all ten first, so what is
        # tested is following the new primary, not replication's lag (the next test's).
        redis.caught_up()
        redis.fail_over(FOLLOW_SECONDS)
        for seq, served_by in ((11, player), (12, tab)):  # each instance, in turn
            moves.append(legal_move(first, player.sid))
            until_served(served_by, moves[-1], seq)
        assert stored(second, player.sid)["game"] == replay(start, moves).position


def test_a_failover_after_a_partition_loses_no_acknowledged_move(tmp_path):
    """The replicas' link to the primary is held, as a partition holds it, while the player
    goes on: the moves the primary took are answered 503, not acknowledged (without
    REDIS_WAIT_REPLICAS they were answered 200, and a failover lost them: bench/failover.py).
    The primary dies; the Sentinels promote a replica; every acknowledged move is there, and
    the page's resent move is played on the game it showed."""
    with replicated(replicas=2) as redis:
        settings = {**redis.settings(), "REDIS_WAIT_REPLICAS": 1, "REDIS_TIMEOUT": 1.0,
                    "REDIS_WAIT_TIMEOUT": 0.2}
        first, second = (production_app(tmp_path / name, **settings)
                         for name in ("first", "second"))
        player = Tab(first.test_client())
        tab = player.tab_on(second)
        start, acknowledged = stored_game(first, player.sid), []
        for seq, served_by in enumerate([player, tab] * 10, start=1):
            direction = legal_move(first, player.sid)
            assert served_by.move(direction, seq).status_code == 200
            acknowledged.append(direction)

        redis.link.hold()
        unacknowledged = legal_move(first, player.sid)
        for tries, served_by in enumerate((player, tab, player)):  # sent, then resent
            answer = served_by.move(unacknowledged, 21, retry=tries > 0)
            assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"

        promoted = redis.fail_over(FOLLOW_SECONDS)
        kept = stored(second, player.sid)
        assert kept["seq"] == len(acknowledged)
        assert kept["game"] == replay(start, acknowledged).position
        assert promoted.ask("ROLE").startswith("master")
        until_served(tab, unacknowledged, 21)
        assert stored(first, player.sid)["game"] == replay(
            start, [*acknowledged, unacknowledged]).position
