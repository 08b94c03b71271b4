"""The daily game's tests run the app on a clock they move: a day starts, ends, the next one
begins, without waiting (``CLOCK``, the app's time)."""

import pytest


@pytest.fixture
def app(tmp_path, make_web_app, clock):
    return make_web_app(tmp_path / "instance", CLOCK=clock, MOVE_RATE_LIMIT="100000/second")


@pytest.fixture
def daily_player(client, make_player):
    """A browser on the daily page."""
    return make_player(client, "/daily")
