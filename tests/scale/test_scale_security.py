"""Security: headers on every response, cookie flags, CSRF, the body limit and the rate limits."""

from __future__ import annotations

import pytest
import redis
from scale_support import Player, build_app, stored

from engine import DIRECTIONS


def responses(app) -> dict[str, object]:
    """One response of each kind the app gives: page, fragment, static file, errors."""
    player = Player(app.test_client())
    return {
        "page": player.client.get("/"),
        "fragment": player.move("left", 1),
        "static": player.client.get("/static/js/main.js"),
        "content page": player.client.get("/en/rules"),
        "not found": player.client.get("/no-such-page"),
        "refused": player.client.post("/move", data={"direction": "left", "seq": "2"}),
    }


def test_every_response_carries_the_security_headers(sqlite_app):
    for kind, response in responses(sqlite_app).items():
        policy = response.headers.get("Content-Security-Policy", "")
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert directives["default-src"] == "'self'", kind
        assert directives["script-src"] == directives["style-src"] == "'self'", kind
        assert directives["frame-ancestors"] == "'none'", kind
        assert "unsafe-inline" not in policy and "http" not in policy and "*" not in policy, kind
        assert response.headers["X-Content-Type-Options"] == "nosniff", kind
        assert response.headers["Referrer-Policy"] == "same-origin", kind
        assert response.headers["X-Frame-Options"] == "DENY", kind


@pytest.mark.parametrize("secure", [False, True])
def test_the_session_cookie_is_httponly_lax_and_secure_when_asked(tmp_path, secure):
    app = build_app(tmp_path / "instance", SESSION_COOKIE_SECURE=secure)
    cookie = app.test_client().get("/").headers["Set-Cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=lax" in cookie
    assert ("; secure" in cookie) is secure


def test_the_session_cookie_is_secure_on_https_requests(sqlite_app):
    cookie = sqlite_app.test_client().get("/", base_url="https://localhost").headers["Set-Cookie"]
    assert "; Secure" in cookie


@pytest.mark.parametrize("secure", [False, True])
def test_the_language_cookie_is_httponly_lax_and_secure_when_asked(tmp_path, secure):
    app = build_app(tmp_path / "instance", SESSION_COOKIE_SECURE=secure)
    cookie = app.test_client().get("/language/pl").headers["Set-Cookie"].lower()
    assert cookie.startswith("lang=pl")
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert ("; secure" in cookie) is secure


def test_a_move_needs_this_sessions_csrf_token(sqlite_app):
    player, stranger = Player(sqlite_app.test_client()), Player(sqlite_app.test_client())
    before = stored(sqlite_app, player.sid)
    forged = {"X-CSRFToken": stranger.token}
    for headers in ({}, {"X-CSRFToken": "made-up"}, forged):
        answer = player.client.post("/move", data={"direction": "left", "seq": "1"},
                                    headers=headers)
        assert answer.status_code == 400
        assert "security token" in answer.text
    assert stored(sqlite_app, player.sid) == before


def test_an_oversized_body_is_refused_with_413(sqlite_app):
    player = Player(sqlite_app.test_client())
    before = stored(sqlite_app, player.sid)
    answer = player.post("/move", direction="left", seq="1", padding="x" * 10_000)
    assert answer.status_code == 413
    assert 'id="message"' in answer.text and "too large" in answer.text
    assert stored(sqlite_app, player.sid) == before


def test_moves_beyond_the_session_budget_get_429(tmp_path):
    app = build_app(tmp_path / "instance", MOVE_RATE_LIMIT="3/minute")
    player = Player(app.test_client())
    answers = [player.move(direction, seq) for seq, direction in enumerate(DIRECTIONS, 1)]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    assert int(answers[-1].headers["Retry-After"]) > 0
    assert "Too many moves" in answers[-1].text
    assert Player(app.test_client()).move("up", 1).status_code == 200  # others play on


def test_solver_requests_beyond_their_budget_get_429(tmp_path):
    app = build_app(tmp_path / "instance", SOLVER_RATE_LIMIT="1/minute")
    player = Player(app.test_client())
    assert player.post("/hint").status_code == 200
    refused = player.post("/hint")
    assert refused.status_code == 429
    assert "solver" in refused.text


def test_page_loads_beyond_the_address_budget_get_429(tmp_path):
    app = build_app(tmp_path / "instance", PAGE_RATE_LIMIT="2/minute")
    assert [app.test_client().get("/").status_code for _ in range(3)] == [200, 200, 429]


@pytest.mark.redis
def test_rate_limit_counters_live_in_redis_with_the_sessions(redis_app, redis_url):
    Player(redis_app.test_client()).move("up", 1)
    assert redis.Redis.from_url(redis_url).keys("*limit/session:*")
