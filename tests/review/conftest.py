"""The review's tests play whole games through the routes, faster than any hand: the app's move
budget is raised so that it never gets in the way (tests/traffic checks the budgets)."""

import pytest


@pytest.fixture
def app(tmp_path, make_web_app):
    return make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="100000/second")
