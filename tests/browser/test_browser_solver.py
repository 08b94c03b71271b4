"""The solver in the page: a hint shows a direction; auto-play plays until a key stops it."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_hint_shows_a_direction_and_marks_the_game_assisted(page: Page, server):
    page.goto(server.url)
    page.locator("#hint-button").click()
    arrow = page.locator("#hint-arrow[data-direction]")
    expect(arrow).to_have_count(1)
    assert arrow.get_attribute("data-direction") in ("up", "down", "left", "right")
    expect(page.locator("#hint-values li").first).to_be_visible()
    expect(page.locator("#assisted")).to_be_visible()
    page.keyboard.press("ArrowLeft")  # a move clears the hint
    expect(page.locator("#hint-arrow[data-direction]")).to_have_count(0)


def test_shift_h_asks_for_a_hint(page: Page, server):
    page.goto(server.url)
    page.keyboard.press("Shift+H")
    expect(page.locator("#hint-arrow[data-direction]")).to_have_count(1)


def test_autoplay_plays_moves_and_stops_on_a_key_press(page: Page, server):
    page.goto(server.url)
    page.locator("#autoplay-speed").fill("10")
    page.locator("#autoplay-button").click()
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => Number(document.getElementById('moves').textContent) >= 3")
    page.keyboard.press("x")
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "false")
    page.wait_for_timeout(400)  # a request already in flight may still land
    moves = page.locator("#moves").inner_text()
    page.wait_for_timeout(600)
    assert page.locator("#moves").inner_text() == moves


ONLY_WINNING_MOVES = [[1024, 1024, 2, 4], [2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64]]
ONLY_LOSING_MOVES = [[128, 16, 4, 128], [64, 128, 64, 16], [128, 32, 8, 4], [8, 128, 16, 0]]  # seed 5


@pytest.mark.parametrize("rows, overlay", [(ONLY_WINNING_MOVES, ".overlay-won"),
                                           (ONLY_LOSING_MOVES, ".overlay-over")])
def test_autoplay_stops_at_the_win_banner_and_at_game_over(page: Page, open_game, rows, overlay):
    open_game(page, rows, seed=5)
    page.locator("#autoplay-button").click()
    expect(page.locator(overlay)).to_be_visible()
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#moves")).to_have_text("1")
