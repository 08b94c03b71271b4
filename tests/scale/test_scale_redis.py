"""Sessions in a real Redis: shared by app instances, expiring on schedule, surviving an outage."""

from __future__ import annotations

import time

import pytest
import redis
from scale_support import Player, build_app, replay, stored, stored_game
from redis_server import RedisServer

pytestmark = pytest.mark.redis


def legal_move(app, sid: str) -> str:
    return stored_game(app, sid).legal_moves()[0]


def test_two_app_instances_on_one_redis_serve_one_game(tmp_path, redis_url):
    first, second = (
        build_app(tmp_path / name, SESSION_BACKEND="redis", REDIS_URL=redis_url)
        for name in ("first", "second")
    )
    player = Player(first.test_client())
    start = stored(first, player.sid)["game"]
    tab = player.tab_on(second)
    moves = []
    for seq, served_by in enumerate([player, tab, player, tab], start=1):
        moves.append(legal_move(first, player.sid))
        assert served_by.move(moves[-1], seq).headers["X-Seq"] == str(seq)

    expected = replay(start, moves)
    assert stored(second, player.sid)["game"] == expected.to_dict()
    assert f'id="moves" class="score-value">{expected.moves}<' in tab.client.get("/").text


def test_a_session_expires_after_its_lifetime_without_play(redis_app, redis_url):
    player = Player(redis_app.test_client())
    player.move("left", 1)
    ttl = redis.Redis.from_url(redis_url).ttl(f"session:{player.sid}")
    lifetime = redis_app.config["PERMANENT_SESSION_LIFETIME"].total_seconds()
    assert lifetime - 5 <= ttl <= lifetime


def test_a_request_whose_lock_expired_is_not_written(redis_app, redis_url, monkeypatch):
    """A request slower than the lock's lifetime lost its lock to the next request: its write
    is refused (503, the page retries) instead of overwriting the newer game."""
    player = Player(redis_app.test_client())
    before = stored(redis_app, player.sid)
    locks = redis_app.session_interface.locks
    acquire = locks.acquire

    def acquire_then_lose(name):
        held = acquire(name)
        redis.Redis.from_url(redis_url).set(held.key, "another request")
        return held

    monkeypatch.setattr(locks, "acquire", acquire_then_lose)
    answer = player.move(legal_move(redis_app, player.sid), 1)
    assert answer.status_code == 503
    assert stored(redis_app, player.sid) == before


def test_redis_killed_and_restarted_mid_game(tmp_path):
    """While Redis is down every request is a fast 503 and nothing is lost; afterwards the
    page's retry of the same move is applied, once, to the same game."""
    with RedisServer() as server:
        app = build_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=server.url)
        player = Player(app.test_client())
        player.move(legal_move(app, player.sid), 1)
        before = stored(app, player.sid)
        direction = legal_move(app, player.sid)
        redis.Redis.from_url(server.url).save()
        server.stop()

        for _ in range(3):
            started = time.monotonic()
            answer = player.move(direction, 2)
            assert time.monotonic() - started < 1.0
            assert answer.status_code == 503
            assert answer.headers["Retry-After"] == "1"
            assert "reach the game server, retrying" in answer.text
        assert player.client.get("/").status_code == 503

        server.start()
        answer = player.move(direction, 2)
        assert answer.status_code == 200
        assert answer.headers["X-Seq"] == "2"
        assert player.move(direction, 2).headers["X-Seq"] == "2"  # a late duplicate: no effect
        assert stored(app, player.sid)["game"] == replay(before["game"], [direction]).to_dict()
