"""The solver in the page: a hint ranks the legal moves and marks the game assisted (the best score
without help stays where it was); auto-play starts and stops with Shift+A, the button or any key,
and asks the server to play the solver's move: one request a move.

Auto-play waits between moves with setTimeout, so these tests run the page on Playwright's fake
clock, paused: a timer fires only when the test moves the clock on, and "no more moves" is
checked by moving the clock well past the next move's time, not by waiting and hoping."""

from datetime import datetime

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browser_support import expect_number
from tests.browser.page_posts import posts_sent, record_posts

# These tests intercept the page's requests (the `routes` fixture, set before the page loads).
# The service worker claims the page soon after it loads, and a route does not see the
# requests of a page it controls, so they run without it.
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="block")]

#: Legal moves: left, right (the 1024s) and down (the last column); up changes nothing.
HINTED = [[1024, 1024, 2, 4], [4, 2, 8, 16], [2, 8, 16, 32], [8, 16, 32, 0]]
CLOCK_START = datetime(2026, 1, 1, 12, 0, 0)
#: Well past auto-play's slowest pause between moves (1 move per second).
LONG_AFTER_MS = 10_000


def test_hint_ranks_the_legal_moves_and_marks_the_game_assisted(page: Page, open_game):
    open_game(page, HINTED, seed=1)
    page.locator("#hint-button").click()
    arrow = page.locator("#hint-arrow[data-direction]")
    expect(arrow).to_have_count(1)
    ranked = page.locator("#hint-values li")
    expect(ranked).to_have_count(3)
    listed = [ranked.nth(index).get_attribute("data-direction") for index in range(3)]
    assert sorted(listed) == ["down", "left", "right"]
    assert arrow.get_attribute("data-direction") == listed[0]
    expect(page.locator("#assisted")).to_be_visible()
    page.keyboard.press("ArrowLeft")  # a move clears the hint
    expect(page.locator("#hint-arrow[data-direction]")).to_have_count(0)


def test_shift_h_asks_for_a_hint(page: Page, open_game):
    open_game(page, HINTED, seed=1)
    with page.expect_response("**/hint"):
        page.keyboard.press("Shift+H")
    expect(page.locator("#hint-arrow[data-direction]")).to_have_count(1)


def test_a_hinted_game_leaves_the_best_score_without_help_alone(page: Page, open_game):
    open_game(page, [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    page.keyboard.press("ArrowLeft")  # 2 + 2: 4 points, without help
    expect(page.locator("#best-unassisted")).to_have_text("4")
    page.locator("#hint-button").click()
    expect(page.locator("#assisted")).to_be_visible()
    page.keyboard.press("ArrowUp")  # 4 + 4: 8 more points, in an assisted game
    expect(page.locator("#score")).to_have_text("12")
    expect(page.locator("#best")).to_have_text("12")
    expect(page.locator("#best-unassisted")).to_have_text("4")
    remembered = page.evaluate("() => [localStorage.getItem('best'), localStorage.getItem('best_unassisted')]")
    assert remembered == ["12", "4"]
    cookies = {cookie["name"]: cookie["value"] for cookie in page.context.cookies()}
    assert (cookies["best"], cookies["best_unassisted"]) == ("12", "4")
    page.reload()
    expect(page.locator("#best-unassisted")).to_have_text("4")
    expect(page.locator("#best")).to_have_text("12")


def open_on_a_paused_clock(page: Page, open_game, rows=None, seed=None) -> None:
    """Open the game with its requests recorded and its timers on a paused fake clock."""
    record_posts(page)
    page.clock.install(time=CLOCK_START)
    open_game(page, rows, seed)
    page.clock.pause_at(CLOCK_START.replace(hour=13))


def play_one_autoplay_move(page: Page, start) -> None:
    """Start auto-play with start() and wait for its first move (played at once): auto-play is
    then waiting for its timer to ask for the next."""
    start()
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#moves")).to_have_text("1")


def assert_sent_nothing_more(page: Page, sent=("/en/solver-move",)) -> None:
    """Run the clock far past the next move's time: the page sent what auto-play had sent so far
    (the positive control: the recorder sees auto-play's requests) and nothing more."""
    page.clock.run_for(LONG_AFTER_MS)
    posts = posts_sent(page)
    assert [post.split(" ")[0] for post in posts] == list(sent), posts
    assert posts[0].endswith("seq=1")
    expect(page.locator("#moves")).to_have_text("1")


def test_auto_play_sends_one_request_a_move_and_the_game_becomes_assisted(page: Page, open_game):
    open_on_a_paused_clock(page, open_game)
    sent = []
    page.on("request", lambda request: sent.append(request) if request.method == "POST" else None)
    play_one_autoplay_move(page, page.locator("#autoplay-button").click)
    for moves in range(2, 6):
        page.clock.run_for(250)  # the pause between moves, at 4 moves a second
        expect_number(page.locator("#moves"), moves)
    page.locator("#autoplay-button").click()
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "false")
    assert [request.url.split("/")[-1] for request in sent] == ["solver-move"] * 5
    assert [request.post_data.split("seq=")[1] for request in sent] == ["1", "2", "3", "4", "5"]
    expect(page.locator("#assisted")).to_be_visible()


def test_auto_play_counts_its_pace_from_one_request_to_the_next(page: Page, routes, open_game):
    """At 4 moves a second a move is asked for 250 ms after the one before, however long that
    one's answer took (here 200 ms of the page's clock): 50 ms after the answer, not 250."""
    open_on_a_paused_clock(page, open_game)
    asked = []
    routes.route("**/solver-move", lambda route: asked.append(route))  # held until released
    page.locator("#autoplay-button").click()
    for _ in range(100):
        if asked:
            break
        page.wait_for_timeout(50)
    page.clock.run_for(200)
    asked[0].continue_()
    expect(page.locator("#moves")).to_have_text("1")
    page.clock.run_for(40)
    page.wait_for_timeout(200)  # time for a request sent too soon to reach the route
    assert len(asked) == 1
    page.clock.run_for(20)
    for _ in range(100):
        if len(asked) == 2:
            break
        page.wait_for_timeout(50)
    assert len(asked) == 2
    page.locator("#autoplay-button").click()
    asked[1].continue_()


@pytest.mark.parametrize("stop_key", ["Shift+A", "x"])
def test_shift_a_starts_auto_play_and_shift_a_or_any_key_stops_it(page: Page, open_game,
                                                                   stop_key):
    open_on_a_paused_clock(page, open_game)
    play_one_autoplay_move(page, lambda: page.keyboard.press("Shift+A"))
    page.keyboard.press(stop_key)
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "false")
    assert_sent_nothing_more(page)


def test_the_auto_play_button_starts_and_stops_it_and_says_stop_while_it_runs(
        page: Page, open_game):
    open_on_a_paused_clock(page, open_game)
    button = page.locator("#autoplay-button")
    expect(button).to_have_text("Auto-play")
    play_one_autoplay_move(page, button.click)
    expect(button).to_have_text("Stop")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(button).to_have_text("Auto-play")
    assert_sent_nothing_more(page)


def test_the_auto_play_speed_is_kept_for_the_next_page(page: Page, open_game):
    open_game(page)
    speed = page.locator("#autoplay-speed")
    expect(speed).to_have_value("4")
    speed.fill("7")  # as a drag that ends on 7 sets it
    page.reload()
    expect(page.locator("#autoplay-speed")).to_have_value("7")


def test_an_answer_arriving_after_the_stop_starts_nothing(page: Page, routes, open_game):
    open_on_a_paused_clock(page, open_game)
    held = []
    routes.route("**/solver-move", lambda route: held.append(route))  # held until released
    page.keyboard.press("Shift+A")
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("x")  # stop while the move is on its way
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "false")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    held[0].continue_()
    expect(page.locator("#moves")).to_have_text("1")
    assert_sent_nothing_more(page)


ONLY_WINNING_MOVES = [[1024, 1024, 2, 4], [2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64]]
ONLY_LOSING_MOVES = [[128, 16, 4, 128], [64, 128, 64, 16], [128, 32, 8, 4], [8, 128, 16, 0]]  # seed 5


@pytest.mark.parametrize("rows, overlay", [(ONLY_WINNING_MOVES, ".overlay-won"),
                                           (ONLY_LOSING_MOVES, ".overlay-over")])
def test_autoplay_stops_at_the_win_banner_and_at_game_over(page: Page, open_game, rows, overlay):
    open_on_a_paused_clock(page, open_game, rows, seed=5)
    page.locator("#autoplay-button").click()
    expect(page.locator(overlay)).to_be_visible()
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "false")
    assert_sent_nothing_more(page)
