"""The page as production serves it: under a strict Content-Security-Policy, and through a Redis
outage (it says it is retrying, keeps every queued move, then sends them in order)."""

from __future__ import annotations

import threading

import pytest
import redis
from playwright.sync_api import Page, expect
from werkzeug.serving import make_server

from engine import Game
from harness.redis_server import RedisServer
from tests.browser.browser_support import expect_number, session_id
from tests.browser.page_posts import moves_sent, record_posts
from tests.web_support import StoreView

pytestmark = pytest.mark.browser

ARROWS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}


RECORD_CSP_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation",
    (event) => window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`));
"""


def test_every_page_runs_under_the_content_security_policy(page: Page, server):
    page.add_init_script(RECORD_CSP_VIOLATIONS)
    for path in ("/", "/en/rules", "/pl/strategy", "/ja/solver"):
        response = page.goto(server.url + path)
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        if path == "/":
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("ArrowUp")
            expect(page.locator("#board")).to_be_visible()
        assert page.evaluate("window.cspViolations") == []


@pytest.fixture
def redis_backed(tmp_path, make_web_app):
    """The app on a redis-server of its own, served on a loopback port: (url, app, redis)."""
    with RedisServer() as store:
        app = make_web_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=store.url)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{server.server_port}", app, store
        server.shutdown()
        thread.join()


#: Pressed while Redis is down, in this order.
QUEUED = ("left", "up", "right")


@pytest.mark.redis
def test_moves_queued_while_redis_is_down_are_kept_and_sent_in_order_when_it_is_back(
        page: Page, redis_backed):
    url, app, store = redis_backed
    record_posts(page)
    page.goto(url)
    page.keyboard.press(ARROWS[StoreView(app).game(session_id(page.context)).legal_moves()[0]])
    expect(page.locator("#moves")).to_have_text("1")
    before = StoreView(app).game(session_id(page.context))
    redis.Redis.from_url(store.url).save()
    store.stop()

    for direction in QUEUED:
        page.keyboard.press(ARROWS[direction])
    expect(page.locator("#message")).to_contain_text("reach the game server", timeout=2_000)
    for _ in range(100):  # until the page has retried at least once
        if len(moves_sent(page)) >= 3:
            break
        page.wait_for_timeout(50)
    during = moves_sent(page)[1:]
    assert len(during) >= 2
    assert set(during) == {f"direction={QUEUED[0]}&seq=2"}  # one in flight, the rest wait
    expect(page.locator("#moves")).to_have_text("1")

    store.start()
    expected = Game.from_saved(before.to_saved())
    for direction in QUEUED:
        expected.move(direction)
    expect_number(page.locator("#moves"), expected.moves, timeout=10_000)
    expect(page.locator("#message")).to_have_text("")
    sent = list(dict.fromkeys(moves_sent(page)[1:]))  # each request once, retries folded
    # The presses made while the first was retried go together, numbered on from it.
    assert sent == [f"direction={QUEUED[0]}&seq=2",
                    "&".join(f"direction={direction}" for direction in QUEUED[1:]) + "&seq=3"]
    assert StoreView(app).game(session_id(page.context)).position == expected.position
