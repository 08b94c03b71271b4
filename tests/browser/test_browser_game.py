"""The game in a real Chromium: keys, the request queue, persistence, banners, best score."""

import pytest
from playwright.sync_api import Page, expect

from engine import Game
from tests.board_html import shown_number
from tests.browser.browser_support import (
    animations_done, expect_number, phone_device, settle, shown_board,
)
from tests.browser.page_posts import named_move

# These tests intercept the page's requests (the `routes` fixture, set before the page loads).
# The service worker claims the page soon after it loads, and a route does not see the
# requests of a page it controls, so they run without it.
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="block")]

MOVE_KEYS = {
    "ArrowUp": "up", "ArrowDown": "down", "ArrowLeft": "left", "ArrowRight": "right",
    "w": "up", "s": "down", "a": "left", "d": "right",
    "k": "up", "j": "down", "h": "left", "l": "right",
}
NEAR_WIN = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0]]
NEAR_LOSS = [[128, 16, 4, 128], [64, 128, 64, 16], [128, 32, 8, 4], [8, 128, 16, 0]]  # seed 5


def wait_until(page: Page, condition, timeout_ms: int = 15_000) -> None:
    """Let the page run until condition() holds (checked between short waits)."""
    for _ in range(timeout_ms // 50):
        if condition():
            return
        page.wait_for_timeout(50)
    assert condition()


def test_every_bound_key_sends_its_direction(page: Page, open_game):
    open_game(page)
    for key, direction in MOVE_KEYS.items():
        with page.expect_request("**/move") as request:
            page.keyboard.press(key)
        assert f"direction={direction}" in request.value.post_data


def test_keys_with_ctrl_alt_or_meta_held_are_left_to_the_browser(page: Page, open_game):
    open_game(page)
    page.keyboard.press("Control+ArrowLeft")
    page.keyboard.press("Alt+ArrowUp")
    page.keyboard.press("Meta+ArrowRight")
    # The first move the page sends is the plain press, numbered 1: the others sent nothing.
    with page.expect_request("**/move") as request:
        page.keyboard.press("ArrowDown")
    assert named_move(request.value.post_data) == "direction=down&seq=1"


def test_fast_presses_all_apply_in_order_and_survive_a_reload(page: Page, server, open_game):
    server.restart(post_delay=0.03)
    sid = open_game(page)
    start = server.store.game(sid)
    keys = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "a", "w", "d", "s", "h", "k"] * 3
    answered = []  # the move numbers the answers reach (presses made meanwhile go together)
    page.on("response", lambda response: answered.append(response.headers.get("x-seq"))
            if response.url.endswith("/move") else None)
    for key in keys:
        page.keyboard.press(key)
    wait_until(page, lambda: str(len(keys)) in answered)
    settle(page)
    expected = Game.from_saved(start.to_saved())
    for key in keys:
        expected.move(MOVE_KEYS[key])
    assert server.store.read(sid)["seq"] == len(keys)
    assert shown_board(page) == [list(row) for row in expected.rows]
    assert shown_number(page.locator("#moves").inner_text()) == expected.moves
    assert shown_number(page.locator("#score").inner_text()) == expected.score
    before = shown_board(page)
    page.reload()
    assert shown_board(page) == before


def test_server_restart_keeps_the_game(page: Page, server, open_game):
    # Seeded, and both moves legal whatever the first spawn (a random start could block both).
    sid = open_game(page, [[0, 0, 2, 0], [0] * 4, [0] * 4, [0, 4, 0, 0]], seed=3)
    for key in ("ArrowLeft", "ArrowUp"):
        with page.expect_response("**/move"):
            page.keyboard.press(key)
    stored_moves = server.store.game(sid).moves
    expect_number(page.locator("#moves"), stored_moves)  # both answers shown
    settle(page)
    before = shown_board(page)
    server.restart()
    page.reload()
    assert shown_board(page) == before
    expect(page.locator("#game")).to_have_attribute("data-in-progress", "true")


def test_win_banner_then_keep_playing(page: Page, open_game):
    open_game(page, NEAR_WIN, seed=7)
    page.keyboard.press("ArrowLeft")
    banner = page.locator(".overlay-won")
    expect(banner).to_be_visible()
    expect(page.locator("#board .tile[data-value='2048']")).to_have_count(1)
    expect(page.locator(".overlay-won [data-intent='keep-playing']")).to_be_focused()
    page.locator(".overlay-won [data-intent='keep-playing']").click()
    expect(banner).to_have_count(0)
    moves = page.locator("#moves").inner_text()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#moves")).not_to_have_text(moves)


def test_a_win_can_be_shared_from_its_banner_with_the_tile_named(page: Page, open_game):
    open_game(page, NEAR_WIN, seed=7)
    page.evaluate("navigator.share = (data) => { window.shared = data; return Promise.resolve(); }")
    page.keyboard.press("ArrowLeft")
    share = page.locator(".overlay-won [data-share]")
    expect(share).to_be_visible()
    share.click()
    page.wait_for_function("() => window.shared !== undefined")
    shared = page.evaluate("window.shared")
    assert shared["text"] == "2048: best tile 2048, 2,048 points"
    assert shared["url"].endswith(f"/en/games/{page.locator('#game').get_attribute('data-game')}")


def test_a_win_that_fills_the_board_asks_before_it_ends(page: Page, open_game):
    rows = [[1024, 1024, 8, 16], [4, 32, 64, 128], [8, 64, 128, 256], [4, 8, 16, 32]]
    open_game(page, rows, seed=3)
    with page.expect_response("**/move") as answer:
        page.keyboard.press("ArrowLeft")
    assert answer.value.headers["x-status"] == "won"  # what the page's script keeps
    expect(page.locator(".overlay-won")).to_be_visible()
    expect(page.locator("#announcement")).to_contain_text("You made 2048!")
    expect(page.locator(".overlay-over")).to_have_count(0)
    page.locator(".overlay-won [data-intent='keep-playing']").click()
    expect(page.locator(".overlay-over")).to_be_visible()
    expect(page.locator("#announcement")).to_contain_text("Game over")


def test_game_over_then_try_again(page: Page, open_game):
    open_game(page, NEAR_LOSS, seed=5)
    # Half a second after the overlay arrives (its animation moved there), the last board is
    # still in full view: the veil has not begun to cover it.
    page.evaluate("""() => { window.veiled = new Promise((resolve) => new MutationObserver(
        (_, observer) => {
            const overlay = document.querySelector(".overlay-over");
            if (!overlay) return;
            observer.disconnect();
            for (const animation of overlay.getAnimations()) animation.currentTime = 500;
            resolve(getComputedStyle(overlay).opacity);
        }).observe(document.body, {childList: true, subtree: true})); }""")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.veiled") == "0"
    expect(page.locator(".overlay-over")).to_be_visible()
    expect(page.locator("#announcement")).to_contain_text("Game over")
    expect(page.locator(".overlay-over [data-intent='new']")).to_be_focused()  # Enter plays again
    page.locator(".overlay-over [data-intent='new']").click()
    expect(page.locator("#confirm-new")).not_to_be_visible()
    expect(page.locator(".overlay-over")).to_have_count(0)
    expect(page.locator("#moves")).to_have_text("0")
    expect(page.locator("#board .tile")).to_have_count(2)


def test_new_game_asks_for_confirmation(page: Page, open_game):
    open_game(page, [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#moves")).to_have_text("1")
    settle(page)
    board = shown_board(page)
    page.locator("#new-game").click()
    dialog = page.locator("#confirm-new")
    expect(dialog).to_be_visible()
    dialog.locator("button[value='cancel']").click()
    expect(dialog).not_to_be_visible()
    assert shown_board(page) == board
    page.locator("#new-game").click()
    dialog.locator("button[value='confirm']").click()
    expect(page.locator("#moves")).to_have_text("0")


def test_best_score_survives_new_games_and_visits(page: Page, server, context, open_game):
    open_game(page, [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#score")).to_have_text("4")
    expect(page.locator("#best")).to_have_text("4")
    page.locator("#new-game").click()
    page.locator("#confirm-new button[value='confirm']").click()
    expect(page.locator("#score")).to_have_text("0")
    expect(page.locator("#best")).to_have_text("4")
    assert page.evaluate("() => localStorage.getItem('best')") == "4"
    later = context.new_page()
    later.goto(server.url)
    assert later.locator("#best").inner_text() == "4"  # rendered by the server, no flash
    # A cookie lost, localStorage kept: the page restores the best score.
    context.clear_cookies(name="best")
    later.reload()
    expect(later.locator("#best")).to_have_text("4")


def test_a_garbage_best_cookie_is_not_trusted(page: Page, server, context):
    context.add_cookies([{"name": "best", "value": "<b>9</b>", "url": server.url}])
    page.goto(server.url)
    expect(page.locator("#best")).to_have_text("0")


def test_refused_request_shows_the_message(page: Page, routes, open_game):
    open_game(page)
    routes.route("**/move", lambda route: route.continue_(
        post_data=route.request.post_data.replace("direction=left", "direction=sideways")))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#message")).to_contain_text("Unknown direction")


def test_a_page_whose_token_the_server_no_longer_accepts_recovers_on_the_first_press(
        page: Page, routes, open_game):
    open_game(page, [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    stripped = []

    def without_token(route):
        stripped.append(route.request.post_data)
        headers = {k: v for k, v in route.request.headers.items() if k.lower() != "x-csrftoken"}
        route.continue_(headers=headers)

    routes.route("**/move", without_token)
    with page.expect_response("**/state?*") as state:
        page.keyboard.press("ArrowLeft")
    assert state.value.ok and len(stripped) == 1  # the refused press fetched the state
    routes.unroute("**/move")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#moves")).to_have_text("1")


IN_PROGRESS = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 0, 0], [0, 2, 0, 4]]


def test_screenshots_of_a_game_in_progress(page: Page, new_context, playwright, artifacts,
                                          open_game):
    page.set_viewport_size({"width": 1280, "height": 900})
    phone = new_context(**phone_device(playwright)).new_page()
    for shown, name in ((page, "game-desktop.png"), (phone, "game-phone.png")):
        open_game(shown, IN_PROGRESS, seed=1)
        shown.keyboard.press("ArrowLeft")
        expect(shown.locator("#moves")).to_have_text("1")
        settle(shown)
        animations_done(shown)
        shown.screenshot(path=artifacts / name, full_page=True)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 412


def test_the_points_a_move_scored_rise_from_the_score_not_over_its_label(page: Page, open_game):
    open_game(page, [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".score-gain span")).to_have_text("+4")
    tops = page.evaluate("""() => {
        const gain = document.querySelector(".score-gain span");
        for (const animation of gain.getAnimations()) animation.pause(), animation.currentTime = 0;
        const box = gain.closest(".score-box");
        return {gain: gain.getBoundingClientRect().top,
                label: box.querySelector(".score-label").getBoundingClientRect().bottom};
    }""")
    assert tops["gain"] >= tops["label"] - 1, tops  # at its start it covers no letter of SCORE


def test_sliding_tiles_keep_their_element_and_merge_leftovers_go(page: Page, open_game):
    open_game(page, [[0, 0, 0, 8], [0] * 4, [0, 0, 2, 2], [0] * 4], seed=3)
    page.evaluate("() => { for (const t of document.querySelectorAll('#board .tile')) t.marked = true; }")
    eight = page.locator("#board .tile[data-value='8']").get_attribute("data-id")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#moves")).to_have_text("1")
    settle(page)
    slid = page.locator(f"#board .tile[data-id='{eight}']")
    expect(slid).to_have_attribute("data-col", "0")
    assert slid.evaluate("tile => tile.marked === true")
    expect(page.locator("#board .tile[data-value='4'][data-row='2'][data-col='0']")).to_have_count(1)
    assert page.locator("#board .tile").count() == 3  # 8, the merged 4 and the new tile


def test_a_move_whose_answer_got_lost_is_retried_and_applied_once(
        page: Page, routes, server, open_game):
    sid = open_game(page, [[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    lost = []

    def lose_the_first_answer(route):
        if lost:
            route.continue_()
            return
        lost.append(route.fetch())  # the server applies the move; the page never hears back
        route.abort()

    routes.route("**/move", lose_the_first_answer)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#moves")).to_have_text("1")
    expect(page.locator("#message")).to_have_text("")
    assert server.store.read(sid)["seq"] == 1
    assert lost[0].status == 200


def test_a_failing_server_shows_its_message_while_the_page_retries(
        page: Page, routes, open_game):
    open_game(page, [[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    failures = []

    def fail_once(route):
        if failures:
            route.continue_()
            return
        failures.append(route.request.post_data)
        route.fulfill(status=503, headers={"Retry-After": "1"},
                      body='<p id="message" class="message" role="alert">Back soon…</p>')

    routes.route("**/move", fail_once)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#message")).to_have_text("Back soon…")
    expect(page.locator("#moves")).to_have_text("1")
    expect(page.locator("#message")).to_have_text("")
