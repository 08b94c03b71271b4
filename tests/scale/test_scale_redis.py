"""Games in a real Redis: shared by app instances, expiring on schedule, surviving an outage."""

from __future__ import annotations

import logging
import os
import signal
import time

import pytest
import redis

from harness.redis_server import RedisServer
from tests.board_html import shown_scores
from tests.scale.scale_support import Tab, production_app, replay, stored, stored_game
from tests.web_support import StoreView
from webapp.review import WORKER, start_worker

pytestmark = pytest.mark.redis


def legal_move(app, sid: str) -> str:
    return StoreView(app).game(sid).legal_moves()[0]


def test_two_app_instances_on_one_redis_serve_one_game(tmp_path, redis_url):
    first, second = (
        production_app(tmp_path / name, SESSION_BACKEND="redis", REDIS_URL=redis_url)
        for name in ("first", "second")
    )
    player = Tab(first.test_client())
    start = stored_game(first, player.sid)
    tab = player.tab_on(second)
    moves = []
    for seq, served_by in enumerate([player, tab, player, tab], start=1):
        moves.append(legal_move(first, player.sid))
        assert served_by.move(moves[-1], seq).headers["X-Seq"] == str(seq)

    expected = replay(start, moves)
    assert stored(second, player.sid)["game"] == expected.position
    assert shown_scores(tab.client.get("/").text)["moves"] == expected.moves


def test_a_game_and_its_session_live_an_hour_until_played_then_their_lifetime(redis_app,
                                                                              redis_url):
    client = redis.Redis.from_url(redis_url)
    player = Tab(redis_app.test_client())
    game_key, session_key = f"game:{player.game}", f"session:{player.sid}"
    assert 3590 <= client.ttl(game_key) <= 3600 and 3590 <= client.ttl(session_key) <= 3600
    lifetime = redis_app.config["PERMANENT_SESSION_LIFETIME"].total_seconds()
    client.expire(game_key, 100)  # as if the player had paused for a long time
    assert player.move(legal_move(redis_app, player.sid), 1).status_code == 200
    assert lifetime - 10 <= client.ttl(game_key) <= lifetime  # the move pushed it
    assert lifetime - 10 <= client.ttl(session_key) <= lifetime


def test_redis_killed_and_restarted_mid_game(tmp_path):
    """While Redis is down every request is a 503 and nothing is lost (how fast the 503 comes is
    measured by bench/store_faults.py); afterwards the
    page's retry of the same move is applied, once, to the same game."""
    with RedisServer() as server:
        app = production_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=server.url)
        player = Tab(app.test_client())
        player.move(legal_move(app, player.sid), 1)
        before = stored_game(app, player.sid)
        direction = legal_move(app, player.sid)
        redis.Redis.from_url(server.url).save()
        server.stop()

        for _ in range(3):
            answer = player.move(direction, 2)
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
        assert stored(app, player.sid)["game"] == replay(before, [direction]).position


def test_a_redis_restart_between_two_moves_costs_the_player_nothing(tmp_path):
    """The pooled connections went stale with the restart, and the next move is served, not
    refused: a stale connection is found out and opened again before the move's commands."""
    with RedisServer() as server:
        app = production_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=server.url)
        player = Tab(app.test_client())
        assert player.move(legal_move(app, player.sid), 1).status_code == 200
        redis.Redis.from_url(server.url).save()
        server.stop()
        server.start()
        answer = player.move(legal_move(app, player.sid), 2)
        assert answer.status_code == 200 and answer.headers["X-Seq"] == "2"


def test_a_hung_redis_is_a_503_within_a_second_then_play_resumes_at_once(tmp_path):
    """A Redis that accepts connections but never answers (stopped with SIGSTOP): the short
    socket timeout, with production's default, turns it into a 503 (bench/store_faults.py times it). A write sent
    meanwhile may still run when it wakes up; with no locks to go stale the very next move
    after it resumes is served, and the move sent during the hang is applied once at most."""
    with RedisServer() as server:
        app = production_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=server.url,
                        REDIS_TIMEOUT=0.25)
        player = Tab(app.test_client())
        start = stored_game(app, player.sid)
        direction = legal_move(app, player.sid)
        os.kill(server.process.pid, signal.SIGSTOP)
        try:
            assert player.move(direction, 1).status_code == 503
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
        answer = player.move(direction, 1)
        assert answer.status_code == 200 and answer.headers["X-Seq"] == "1"
        assert stored(app, player.sid)["game"] == replay(start, [direction]).position


def test_the_app_starts_while_redis_is_down_and_serves_once_it_is_up(tmp_path):
    server = RedisServer()
    app = production_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=server.url)
    assert app.test_client().get("/").status_code == 503
    with server:
        assert Tab(app.test_client()).move("left", 1).status_code == 200


def test_while_redis_is_down_each_log_names_the_server_and_the_cause(tmp_path, caplog):
    """The session store's and the review thread's warnings name the server and why it failed;
    the review thread says it once per outage, not at every look."""
    with RedisServer() as server:
        app = production_app(tmp_path / "instance", SESSION_BACKEND="redis",
                             REDIS_URL=server.url)
        player = Tab(app.test_client())
        server.stop()
        cause = (f"ConnectionError: Error 111 connecting to 127.0.0.1:{server.port}."
                 " Connection refused.")
        worker = app.extensions[WORKER]
        try:
            with caplog.at_level(logging.WARNING):
                assert player.client.get("/").status_code == 503
                assert f"session store {server.url}: cannot read: {cause}" in caplog.text
                caplog.clear()
                start_worker(app)
                deadline = time.monotonic() + 10
                while "the review queue" not in caplog.text:
                    assert time.monotonic() < deadline, "the review thread said nothing"
                    time.sleep(0.05)
                time.sleep(2.5)  # two more looks at the queue, each failing
        finally:
            worker.stop(timeout=10)
    said = [record.getMessage() for record in caplog.records
            if record.getMessage().startswith("the review queue")]
    assert said == [f"the review queue ({server.url}) could not be read or written: {cause}"]
