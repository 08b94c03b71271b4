"""The security headers docs/deploy.md lists, on every kind of answer: pages, fragments, static
files and the refusals (400, 404, 413, 429, 503). HSTS only on HTTPS; cookies HttpOnly,
SameSite=Lax, Secure on HTTPS; PROXY_HOPS decides whose address and scheme count."""

from __future__ import annotations

import secrets

import pytest
from werkzeug.test import TestResponse

from harness.redis_server import RedisServer
from webapp.production import create_production_app

#: The tightest budgets: each route's second request in a minute is refused.
TIGHT_LIMITS = {"MOVE_RATE_LIMIT": "1/minute", "SOLVER_RATE_LIMIT": "1/minute",
                "PAGE_RATE_LIMIT": "2/minute"}
DENIED_FEATURES = ("camera", "geolocation", "microphone", "payment")
ONE_YEAR = 365 * 24 * 3600
PLAIN_HTTP, HTTPS = "http", "https"


def client_over(app, scheme: str):
    """A test client whose requests the app sees arriving over `scheme` (for https: through a
    TLS proxy in front), sending the page's address as Referer, as a browser does."""
    inner = app.wsgi_app

    def with_scheme(environ, start_response):
        environ["wsgi.url_scheme"] = scheme
        return inner(environ, start_response)

    app.wsgi_app = with_scheme
    client = app.test_client()
    client.environ_base["HTTP_REFERER"] = f"{scheme}://localhost/"
    return client


def every_kind_of_answer(client, make_player) -> dict[str, TestResponse]:
    """One answer of each kind the app gives, the refusals included (limits as TIGHT_LIMITS)."""
    player = make_player(client)
    legal = client.application.extensions["games"].get(player.game).game.legal_moves()[0]
    answers = {
        "first page load": player.page,
        "page": player.client.get("/"),
        "fragment": player.move(legal),  # a played game: its session is stored, its cookie set
        "hint": player.post("/hint"),
        "static file": player.client.get("/static/js/main.js"),
        "content page": player.client.get("/en/rules"),
        "language choice": player.client.get("/language/pl"),
        "not found": player.client.get("/no-such-page"),
        "refused (no CSRF token)": player.client.post("/move", data={"direction": "up"}),
        "too large (413)": player.post("/move", direction="up", seq="9", padding="x" * 5000),
        "move over budget (429)": player.move("up"),
        "hint over budget (429)": player.post("/hint"),
        "page over budget (429)": player.client.get("/"),
    }
    expected = {"too large (413)": 413, "not found": 404, "refused (no CSRF token)": 400,
                "language choice": 302}
    for kind, answer in answers.items():
        assert answer.status_code == expected.get(kind, 429 if "429" in kind else 200), kind
    return answers


def assert_security_headers(response: TestResponse, scheme: str, kind: str) -> None:
    policy = response.headers.get("Content-Security-Policy", "")
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == directives["script-src"] == "'self'", kind
    assert directives["style-src"] == "'self'", kind
    assert directives["frame-ancestors"] == "'none'", kind
    assert "unsafe-inline" not in policy and "http" not in policy and "*" not in policy, kind
    assert response.headers["X-Content-Type-Options"] == "nosniff", kind
    assert response.headers["Referrer-Policy"] == "same-origin", kind
    assert response.headers["X-Frame-Options"] == "DENY", kind
    permissions = dict(part.strip().split("=", 1)
                       for part in response.headers["Permissions-Policy"].split(","))
    assert all(permissions.get(feature) == "()" for feature in DENIED_FEATURES), (kind, permissions)
    hsts = response.headers.get("Strict-Transport-Security")
    if scheme == HTTPS:
        assert hsts is not None, kind
        max_age = dict(part.strip().partition("=")[::2] for part in hsts.split(";"))["max-age"]
        assert int(max_age) >= ONE_YEAR, kind
    else:
        assert hsts is None, kind


def cookie_flags(response: TestResponse) -> dict[str, set[str]]:
    """Each cookie the answer sets -> its flags, lower-cased, values dropped."""
    flags = {}
    for header in response.headers.getlist("Set-Cookie"):
        name, *attributes = (part.strip() for part in header.split(";"))
        flags[name.split("=", 1)[0]] = {attribute.split("=", 1)[0].lower() for attribute in attributes}
        assert "samesite=lax" in header.lower(), header
    return flags


@pytest.mark.parametrize("scheme", [PLAIN_HTTP, HTTPS])
def test_every_answer_carries_the_security_headers(tmp_path, make_web_app, make_player, scheme):
    client = client_over(make_web_app(tmp_path / "instance", **TIGHT_LIMITS), scheme)
    for kind, answer in every_kind_of_answer(client, make_player).items():
        assert_security_headers(answer, scheme, kind)


@pytest.mark.parametrize("scheme", [PLAIN_HTTP, HTTPS])
def test_every_cookie_is_httponly_lax_and_secure_exactly_on_https(tmp_path, make_web_app,
                                                                  make_player, scheme):
    client = client_over(make_web_app(tmp_path / "instance", **TIGHT_LIMITS), scheme)
    set_by = {kind: cookie_flags(answer)
              for kind, answer in every_kind_of_answer(client, make_player).items()}
    assert "session" in set_by["first page load"] and "session" in set_by["fragment"]
    assert "lang" in set_by["language choice"]
    for kind, cookies in set_by.items():
        for name, flags in cookies.items():
            assert "httponly" in flags, (kind, name)
            assert ("secure" in flags) is (scheme == HTTPS), (kind, name)


@pytest.mark.redis
@pytest.mark.parametrize("scheme", [PLAIN_HTTP, HTTPS])
def test_store_outage_answers_carry_the_security_headers(tmp_path, make_web_app, make_player,
                                                         scheme):
    with RedisServer() as redis_server:
        app = make_web_app(tmp_path / "instance", SESSION_BACKEND="redis",
                           REDIS_URL=redis_server.url)
        player = make_player(client_over(app, scheme))
        redis_server.stop()
        answers = {"page": player.client.get("/"), "move": player.move("left"),
                   "hint": player.post("/hint"), "new game": player.post("/new")}
    for kind, answer in answers.items():
        assert answer.status_code == 503, kind
        assert answer.headers["Retry-After"] == "1", kind
        assert_security_headers(answer, scheme, kind)


@pytest.fixture
def production_app(monkeypatch, tmp_path):
    """production_app(**environ): the app gunicorn serves, built from this environment."""

    def build(**environ: str):
        monkeypatch.delenv("REDIS_URL", raising=False)
        settings = {"SECRET_KEY": secrets.token_hex(32), "SQLITE_PATH": str(tmp_path / "games.sqlite3"),
                    "SOLVER_WARM_UP": "0", "SESSION_COOKIE_SECURE": "0", **environ}
        for name, value in settings.items():
            monkeypatch.setenv(name, value)
        return create_production_app()

    return build


def test_behind_one_proxy_the_forwarded_scheme_decides_hsts_and_secure_cookies(production_app):
    app = production_app(PROXY_HOPS="1")
    forwarded = app.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert_security_headers(forwarded, HTTPS, "forwarded over https")
    assert "secure" in cookie_flags(forwarded)["session"]
    plain = app.test_client().get("/", headers={"X-Forwarded-Proto": "http"})
    assert_security_headers(plain, PLAIN_HTTP, "forwarded over http")
    assert "secure" not in cookie_flags(plain)["session"]


def test_without_proxy_hops_a_client_cannot_claim_https(production_app):
    client = production_app().test_client()
    claimed = client.get("/", headers={"X-Forwarded-Proto": "https"})
    assert_security_headers(claimed, PLAIN_HTTP, "claimed https")
    assert "secure" not in cookie_flags(claimed)["session"]


def page_load(client, forwarded_for: str) -> int:
    return client.get("/", headers={"X-Forwarded-For": forwarded_for}).status_code


def test_behind_one_proxy_page_budgets_count_the_address_the_proxy_saw(production_app):
    client = production_app(PROXY_HOPS="1", PAGE_RATE_LIMIT="1/minute").test_client()
    assert page_load(client, "203.0.113.1") == 200
    assert page_load(client, "203.0.113.1") == 429
    assert page_load(client, "203.0.113.2") == 200  # another player behind the same proxy
    # A client writing its own X-Forwarded-For only adds entries before the proxy's own one.
    assert page_load(client, "198.51.100.7, 203.0.113.1") == 429


def test_without_proxy_hops_forwarded_addresses_are_ignored(production_app):
    client = production_app(PAGE_RATE_LIMIT="1/minute").test_client()
    assert page_load(client, "203.0.113.1") == 200
    assert page_load(client, "203.0.113.2") == 429  # the same connecting address
