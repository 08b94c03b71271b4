"""The budgets' counters, in SQLite and in a real Redis: a request's counters drawn in
turn, stopped at the first it overdraws, each window starting on its first hit."""

import time

import pytest
import redis

from webapp.store.redis_client import redis_client
from webapp.traffic import counters as counters_module
from webapp.traffic.counters import Draw, Overdrawn, RedisCounters, SqliteCounters


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def counters(request, tmp_path):
    if request.param == "sqlite":
        return SqliteCounters(tmp_path / "limits.sqlite3", busy_timeout=2.0)
    return RedisCounters(redis_client(request.getfixturevalue("redis_url"), 2.0))


def test_draws_within_their_limits_pass(counters):
    draws = [Draw("a", 60, 3), Draw("b", 60, 6)]
    assert [counters.draw(draws, 1) for _ in range(3)] == [None] * 3


def test_the_first_counter_overdrawn_refuses_and_the_later_ones_are_left_alone(counters):
    first, second = Draw("first", 60, 2), Draw("second", 3600, 10)
    assert counters.draw([first, second], 2) is None
    started = time.time()
    refused = counters.draw([first, second], 1)
    assert isinstance(refused, Overdrawn) and refused.index == 0
    assert started + 58 <= refused.ends <= started + 61  # the first window's end
    # The second counter was not drawn on by the refused request: 2 of its 10 are used.
    assert counters.draw([Draw("second", 3600, 10)], 8) is None
    assert counters.draw([Draw("second", 3600, 10)], 1).index == 0


def test_a_cost_larger_than_the_limit_is_refused_at_once(counters):
    assert counters.draw([Draw("a", 60, 8), Draw("b", 60, 80)], 9) == Overdrawn(0, pytest.approx(
        time.time() + 60, abs=2))


def test_a_window_that_ended_starts_again(tmp_path, monkeypatch):
    counters, now = SqliteCounters(tmp_path / "limits.sqlite3", busy_timeout=2.0), time.time()
    monkeypatch.setattr(counters_module.time, "time", lambda: now)
    draw = Draw("short", 10, 1)
    assert counters.draw([draw], 1) is None
    assert counters.draw([draw], 1) == Overdrawn(0, now + 10)
    now += 10
    assert counters.draw([draw], 1) is None


@pytest.mark.redis
def test_redis_counters_expire_with_their_window(redis_url):
    RedisCounters(redis_client(redis_url, 2.0)).draw([Draw("limit/x", 60, 5)], 1)
    assert 0 < redis.Redis.from_url(redis_url).ttl("limit/x") <= 60
