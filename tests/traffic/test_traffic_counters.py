"""The budgets' counters, in SQLite, a real Redis and a real Redis Cluster: a request's counters
drawn in turn, stopped at the first it overdraws, each window starting on its first hit. A
request's counters share a hash tag (the budgets tag them with the client's address), as they
do here, so that on a cluster they are in one slot."""

import time

import pytest
import redis

from tests.web_support import STORES, redis_of
from webapp.store.redis_client import redis_client
from webapp.traffic import counters as counters_module
from webapp.traffic.counters import Draw, Overdrawn, RedisCounters, SqliteCounters


@pytest.fixture(params=STORES)
def counters(request, tmp_path):
    if request.param == "sqlite":
        return SqliteCounters(tmp_path / "limits.sqlite3", busy_timeout=2.0)
    return RedisCounters(redis_of(request, request.param))


def test_draws_within_their_limits_pass(counters):
    draws = [Draw("{client}a", 60, 3), Draw("{client}b", 60, 6)]
    assert [counters.draw(draws, 1) for _ in range(3)] == [None] * 3


def test_the_first_counter_overdrawn_refuses_and_the_later_ones_are_left_alone(counters):
    first, second = Draw("{client}first", 60, 2), Draw("{client}second", 3600, 10)
    assert counters.draw([first, second], 2) is None
    started = time.time()
    refused = counters.draw([first, second], 1)
    assert isinstance(refused, Overdrawn) and refused.index == 0
    assert started + 58 <= refused.ends <= started + 61  # the first window's end
    # The second counter was not drawn on by the refused request: 2 of its 10 are used.
    assert counters.draw([Draw("{client}second", 3600, 10)], 8) is None
    assert counters.draw([Draw("{client}second", 3600, 10)], 1).index == 0


def test_a_cost_larger_than_the_limit_is_refused_at_once(counters):
    draws = [Draw("{client}a", 60, 8), Draw("{client}b", 60, 80)]
    assert counters.draw(draws, 9) == Overdrawn(0, pytest.approx(time.time() + 60, abs=2))


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
    counters = RedisCounters(redis_client({"REDIS_URL": redis_url, "REDIS_TIMEOUT": 2.0}))
    counters.draw([Draw("limit/x", 60, 5)], 1)
    assert 0 < redis.Redis.from_url(redis_url).ttl("limit/x") <= 60
