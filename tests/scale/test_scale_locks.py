"""The per-session locks on their own: exclusive, bounded, and released only by their holder."""

from __future__ import annotations

import os
import time

import pytest
import redis
from flask import session
from scale_support import Player

from webapp.store.locks import FileLocks, LockTimeout, RedisLocks


@pytest.fixture(params=["file", pytest.param("redis", marks=pytest.mark.redis)])
def locks(request, tmp_path):
    if request.param == "redis":
        return RedisLocks(redis.Redis.from_url(request.getfixturevalue("redis_url")), wait=0.05)
    return FileLocks(str(tmp_path / "locks"), wait=0.05)


def test_a_held_lock_makes_the_next_request_wait_then_give_up(locks):
    held = locks.acquire("session:a")
    started = time.monotonic()
    with pytest.raises(LockTimeout):
        locks.acquire("session:a")
    assert time.monotonic() - started < 0.5
    other = locks.acquire("session:b")  # another game is not held up
    other.release()
    held.release()
    locks.acquire("session:a").release()


def test_releasing_twice_is_harmless(locks):
    held = locks.acquire("session:a")
    held.release()
    held.release()
    locks.acquire("session:a").release()


def test_file_locks_use_a_fixed_set_of_files(tmp_path):
    locks = FileLocks(str(tmp_path / "locks"), stripes=16)
    for number in range(200):
        locks.acquire(f"session:{number}").release()
    assert len(os.listdir(tmp_path / "locks")) == 16


@pytest.mark.redis
def test_an_expired_redis_lock_is_not_released_by_its_old_holder(redis_url):
    client = redis.Redis.from_url(redis_url)
    locks = RedisLocks(client, ttl=0.05, wait=0.5)
    stale = locks.acquire("session:a")
    time.sleep(0.1)
    current = locks.acquire("session:a")
    stale.release()
    assert client.get("lock:session:a") == current.token.encode()
    current.release()
    assert client.get("lock:session:a") is None


@pytest.mark.parametrize("propagate", [False, True])
def test_a_request_that_fails_still_releases_its_games_lock(file_app, propagate):
    """Whether the error becomes a 500 or propagates (as under a debugger), the next request
    for the game does not wait for a lock nobody holds."""
    file_app.config["PROPAGATE_EXCEPTIONS"] = propagate

    @file_app.post("/fail")
    def fail():
        session["touched"] = True
        raise RuntimeError("the view failed")

    player = Player(file_app.test_client())
    try:
        assert player.post("/fail").status_code == 500
    except RuntimeError:
        assert propagate
    started = time.monotonic()
    assert player.move("left", 1).status_code == 200
    assert time.monotonic() - started < 0.5
