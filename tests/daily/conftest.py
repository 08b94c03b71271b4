"""The daily game's tests run the app on a clock they move: a day starts, ends, the next one
begins, without waiting (``CLOCK``, the app's time)."""

import time

import pytest


class Clock:
    """A clock the test moves on; it starts at the real time, so the store's own expiry (on
    the real clock) keeps everything the test makes."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path, make_web_app, clock):
    return make_web_app(tmp_path / "instance", CLOCK=clock, MOVE_RATE_LIMIT="100000/second")


@pytest.fixture
def daily_player(client, make_player):
    """A browser on the daily page."""
    return make_player(client, "/daily")
