"""Sessions in a real Redis: shared by app instances, expiring on schedule, surviving an outage."""

from __future__ import annotations

import os
import signal
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
        page = player.client.get("/")
        assert page.status_code == 503
        assert 'http-equiv="refresh"' in page.text

        server.start()
        answer = player.move(direction, 2)
        assert answer.status_code == 200
        assert answer.headers["X-Seq"] == "2"
        assert player.move(direction, 2).headers["X-Seq"] == "2"  # a late duplicate: no effect
        assert stored(app, player.sid)["game"] == replay(before["game"], [direction]).to_dict()


def test_a_hung_redis_is_a_503_within_a_second_then_play_resumes(tmp_path):
    """A Redis that accepts connections but never answers (stopped with SIGSTOP): the short
    socket timeout, with production's default, turns it into a quick 503. Commands sent
    meanwhile run when it wakes up, so a lock taken for a request that already gave up stays
    until its TTL runs out; the page's retries get through after that."""
    with RedisServer() as server:
        app = build_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=server.url,
                        REDIS_TIMEOUT=0.25, SESSION_LOCK_TTL=1.0, SESSION_LOCK_WAIT=0.2)
        player = Player(app.test_client())
        direction = legal_move(app, player.sid)
        os.kill(server.process.pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            assert player.move(direction, 1).status_code == 503
            assert time.monotonic() - started < 1.0
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
        retries = 0
        while (answer := player.move(direction, 1)).status_code == 503 and retries < 10:
            retries += 1
            time.sleep(0.2)
        assert answer.headers["X-Seq"] == "1"


def test_the_app_starts_while_redis_is_down_and_serves_once_it_is_up(tmp_path):
    server = RedisServer()
    app = build_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=server.url)
    assert app.test_client().get("/").status_code == 503
    with server:
        assert Player(app.test_client()).move("left", 1).status_code == 200
