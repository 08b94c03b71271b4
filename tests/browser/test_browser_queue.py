"""The request queue when the server fails or refuses: a request that keeps meeting server errors
is given up after a few tries with a message, and later presses still play; a 429 is waited out
for its Retry-After in seconds; a damaged game record no longer wedges the page.

Retries wait with setTimeout, so these tests run the page on Playwright's fake clock, paused: a
retry is sent only when the test moves the clock on, and "nothing more was sent" is checked by
moving it well past any retry."""

from urllib.parse import parse_qsl

import pytest
from playwright.sync_api import Page, expect

from engine import Game
from harness.damage import damage_stored_move
from tests.browser.page_posts import moves_sent, posts_sent, record_posts
from tests.browser.test_browser_game import wait_until
from tests.browser.test_browser_solver import open_on_a_paused_clock
from tests.damage_support import keep_as_current, played

# These tests intercept the page's requests (the `routes` fixture, set before the page loads).
# The service worker claims the page soon after it loads, and a route does not see the
# requests of a page it controls, so they run without it.
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="block")]

ARROWS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
START = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]
#: static/js/queue.js: SERVER_ERROR_TRIES.
SERVER_ERROR_TRIES = 5
GAVE_UP = "The game server keeps failing, so your last presses were not played."
#: Past the longest wait between two tries (4 s, or a Retry-After of 1 s).
PAST_ANY_RETRY_MS = 60_000


def run_clock_until(page: Page, done, step_ms: int = 500, steps: int = 200) -> None:
    """Move the paused clock on in steps until done() holds; each look at the page lets it
    handle the answers that came in meanwhile."""
    for _ in range(steps):
        if done():
            return
        page.clock.run_for(step_ms)
    pytest.fail("the page never got there")


def test_a_request_the_server_keeps_failing_is_given_up_and_later_presses_play(
        page: Page, routes, open_game):
    open_on_a_paused_clock(page, open_game, START, seed=3)
    failed = []

    def fail(route):
        failed.append(route.request.post_data)
        route.fulfill(status=500, body="<p>Internal Server Error</p>")

    routes.route("**/move", fail)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")  # waits behind the failing one, and goes with it
    message = page.locator("#message")
    run_clock_until(page, lambda: GAVE_UP in (message.text_content() or ""))
    page.clock.run_for(PAST_ANY_RETRY_MS)
    assert len(failed) == SERVER_ERROR_TRIES
    first, *again = failed  # sent again as a retry: the first try may have landed
    assert "direction=left" in first and again == [f"{first}&retry=1"] * (SERVER_ERROR_TRIES - 1)
    expect(page.locator("#moves")).to_have_text("0")

    routes.unroute("**/move")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#moves")).to_have_text("1")
    expect(message).to_have_text("")
    assert moves_sent(page)[-1] == "direction=left&seq=1"


def test_a_429_is_waited_out_for_its_retry_after_in_seconds(page: Page, serve, open_game):
    """One move a minute: the second press is refused with Retry-After (about 60 s); it is
    sent again once that many seconds have passed on the page's clock, not a second before."""
    server = serve(MOVE_RATE_LIMIT="1/minute")
    open_on_a_paused_clock(page, lambda page, rows, seed: page.goto(server.url))
    game = server.store.game(server.sid_of(page.context))
    page.keyboard.press(ARROWS[game.legal_moves()[0]])
    expect(page.locator("#moves")).to_have_text("1")
    game.move(game.legal_moves()[0])
    with page.expect_response(lambda answer: answer.url.endswith("/move")) as refused:
        page.keyboard.press(ARROWS[game.legal_moves()[0]])
    retry_after = int(refused.value.headers["retry-after"])
    assert refused.value.status == 429 and retry_after > 5
    page.clock.run_for((retry_after - 1) * 1000)
    assert len(moves_sent(page)) == 2
    page.clock.run_for(1500)
    assert len(moves_sent(page)) == 3


def test_undo_on_a_damaged_record_says_so_and_later_presses_move_tiles(
        page: Page, server, open_game):
    """A stored move flipped by two bits: the undo answers the game's start with a message,
    where it used to answer 500, and the page resent it for ever and sent nothing else."""
    sid = open_game(page)
    keep_as_current(server.store, sid, played(30, seed=5))
    damage_stored_move(server.app, server.store.read(sid)["id"], 20)
    page.reload()
    expect(page.locator("#moves")).to_have_text("30")
    page.keyboard.press("u")
    expect(page.locator("#message")).to_contain_text("saved record was damaged")
    expect(page.locator("#moves")).to_have_text("0")
    start = Game.new(seed=5)
    page.keyboard.press(ARROWS[start.legal_moves()[0]])
    expect(page.locator("#moves")).to_have_text("1")
    assert server.store.read(sid)["seq"] == 32


def test_an_answer_the_page_fails_to_handle_does_not_stop_the_presses_after_it(
        page: Page, routes, server, open_game):
    """The first move's answer (applied by the server) reaches the page without its scores, so
    handling it throws; the next press is still sent and shown. The queue used to stay marked
    as sending for ever, and sent nothing more."""
    open_game(page, START, seed=3)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def lose_the_scores_once(route):
        if route.request.post_data.endswith("seq=2"):
            route.continue_()
            return
        answer = route.fetch()
        route.fulfill(response=answer, body='<div id="scores"></div>')

    routes.route("**/move", lose_the_scores_once)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#scores")).to_be_empty()
    page.keyboard.press("ArrowUp")
    expect(page.locator("#moves")).to_have_text("2")
    assert len(errors) == 1 and "textContent" in errors[0]


def test_presses_waiting_behind_an_answer_the_page_fails_to_handle_are_still_sent(
        page: Page, routes, server, open_game):
    """As above, but the next press is made while the first request is in flight: it waits in
    the queue, and once the first answer throws, the queue goes on and sends it."""
    record_posts(page)
    open_game(page, START, seed=3)
    held = []

    def hold_then_lose_the_scores(route):
        if route.request.post_data.endswith("seq=1"):
            held.append(route)
        else:
            route.continue_()

    routes.route("**/move", hold_then_lose_the_scores)
    page.keyboard.press("ArrowLeft")
    wait_until(page, lambda: held)
    page.keyboard.press("ArrowUp")
    answer = held[0].fetch()
    held[0].fulfill(response=answer, body='<div id="scores"></div>')
    expect(page.locator("#moves")).to_have_text("2")
    assert moves_sent(page) == ["direction=left&seq=1", "direction=up&seq=2"]


def test_an_undo_behind_an_in_flight_move_goes_alone_and_the_arrows_after_it_go_together(
        page: Page, routes, server, open_game):
    """Left is in flight; U, then up and right are pressed: the undo goes on its own (to /undo,
    with no direction), then one /move carries both arrows."""
    record_posts(page)
    sid = open_game(page, START, seed=3)
    held = []
    routes.route("**/move", lambda route: held.append(route) if not held else route.continue_())
    page.keyboard.press("ArrowLeft")
    wait_until(page, lambda: held)
    for key in ("u", "ArrowUp", "ArrowRight"):
        page.keyboard.press(key)
    held[0].continue_()
    expect(page.locator("#moves")).to_have_text("2")
    sent = [(path.rsplit("/", 1)[1], [field for field in parse_qsl(body) if field[0] != "game"])
            for path, _, body in (post.partition(" ") for post in posts_sent(page))]
    assert sent == [("move", [("direction", "left"), ("seq", "1")]),
                    ("undo", [("seq", "2")]),
                    ("move", [("direction", "up"), ("direction", "right"), ("seq", "3")])]
    assert server.store.read(sid)["seq"] == 4

