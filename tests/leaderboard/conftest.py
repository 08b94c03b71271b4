"""The records table's tests: players finish whole games through the routes (the move and
entering budgets raised so that they never get in the way; one test checks entering's) on an app whose
clock the test moves, with the SQLite store, or a real redis-server too (``BOTH_STORES``)."""

import pytest


@pytest.fixture
def backend(request) -> dict:
    """The store's settings: SQLite, unless the test asks for Redis too (BOTH_STORES)."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return {}
    return {"SESSION_BACKEND": "redis", "REDIS_URL": request.getfixturevalue("redis_url")}


@pytest.fixture
def app(tmp_path, make_web_app, clock, backend):
    return make_web_app(tmp_path / "instance", CLOCK=clock, MOVE_RATE_LIMIT="100000/second",
                        RECORDS_RATE_LIMIT="1000/minute",
                        **backend)
