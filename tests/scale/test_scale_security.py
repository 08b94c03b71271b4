"""Security: cookie flags as configured, CSRF tokens, rate-limit counters in Redis. (The headers on
every answer, the body limit and the budgets: tests/webapp/test_web_security_headers.py and
test_web_limits.py.)"""

from __future__ import annotations

import pytest
import redis

from tests.scale.scale_support import Tab, production_app, stored


@pytest.mark.parametrize("secure", [False, True])
def test_the_session_cookie_is_httponly_lax_and_secure_when_asked(tmp_path, secure):
    app = production_app(tmp_path / "instance", SESSION_COOKIE_SECURE=secure)
    cookie = app.test_client().get("/").headers["Set-Cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=lax" in cookie
    assert ("; secure" in cookie) is secure


@pytest.mark.parametrize("secure", [False, True])
def test_the_language_cookie_is_httponly_lax_and_secure_when_asked(tmp_path, secure):
    app = production_app(tmp_path / "instance", SESSION_COOKIE_SECURE=secure)
    cookie = app.test_client().get("/language/pl").headers["Set-Cookie"].lower()
    assert cookie.startswith("lang=pl")
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert ("; secure" in cookie) is secure


def test_a_move_needs_this_sessions_csrf_token(sqlite_app):
    player, stranger = Tab(sqlite_app.test_client()), Tab(sqlite_app.test_client())
    before = stored(sqlite_app, player.sid)
    forged = {"X-CSRFToken": stranger.token}
    for headers in ({}, {"X-CSRFToken": "made-up"}, forged):
        answer = player.client.post("/move", data={"direction": "left", "seq": "1"},
                                    headers=headers)
        assert answer.status_code == 400
        assert "security token" in answer.text
    assert stored(sqlite_app, player.sid) == before


@pytest.mark.redis
def test_rate_limit_counters_live_in_redis_with_the_sessions(redis_app, redis_url):
    Tab(redis_app.test_client()).move("up", 1)
    assert redis.Redis.from_url(redis_url).keys("*limit/{127.0.0.1}/session:*")
