"""Keys after a pointer, and focus rings for the keyboard only: once a mouse or a finger has used
the auto-play speed slider, the arrow keys move the tiles; a keyboard user who tabs to the slider
still sets it with the arrows. A control focused after a pointer's use (also by the page itself,
as the win banner's button) wears no focus ring; one focused from the keyboard does."""

import pytest
from playwright.sync_api import Page, expect

from engine import Game
from tests.history_support import play

pytestmark = pytest.mark.browser

#: Tiles that can move left, then down, then left again.
START = [[0, 2, 0, 0], [0] * 4, [0, 0, 0, 4], [0] * 4]
#: A merge to 2048 to the left: the win banner, whose Keep playing the page focuses.
WIN_LEFT = [[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]]
RING = "() => getComputedStyle(document.activeElement).outlineStyle"


def tab_to(page: Page, selector: str) -> None:
    """Press Tab until the element has focus, as a keyboard user gets there."""
    for _ in range(30):
        if page.evaluate("(selector) => document.activeElement.matches(selector)", selector):
            return
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reached {selector}")


def test_after_a_pointer_used_the_speed_slider_the_arrows_move_the_tiles(page: Page, open_game):
    open_game(page, rows=START, seed=1)
    slider = page.locator("#autoplay-speed")
    tab_to(page, "#autoplay-speed")
    page.keyboard.press("ArrowLeft")
    expect(slider).to_have_value("3")  # reached by Tab: the slider's own arrows
    expect(page.locator("#moves")).to_have_text("0")
    assert page.evaluate(RING) == "solid"

    slider.click()  # the mouse sets the speed...
    value = slider.input_value()
    page.keyboard.press("ArrowLeft")  # ...and the arrows play again
    expect(page.locator("#moves")).to_have_text("1")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#moves")).to_have_text("2")
    expect(slider).to_have_value(value)
    assert page.evaluate(RING) == "none"


def drag_left(page: Page) -> None:
    """A mouse drag across the board, which plays like a swipe."""
    board = page.locator(".board-frame").bounding_box()
    y = board["y"] + board["height"] / 2
    page.mouse.move(board["x"] + board["width"] * 0.8, y)
    page.mouse.down()
    page.mouse.move(board["x"] + board["width"] * 0.2, y, steps=5)
    page.mouse.up()


def test_after_a_pointer_used_the_replay_speed_slider_the_arrows_step_the_replay(
        page: Page, server, make_player):
    player = make_player(server.app.test_client())
    server.store.update(server.store.sid_of(player.client), game=Game.new(7))
    assert len(play(player, server.store, moves=3)) == 3
    page.goto(f"{server.url}/en/games/{player.game}?move=0")
    page.wait_for_load_state()  # the viewer's script is running
    speed = page.locator("#replay-speed")
    speed.click()
    value = speed.input_value()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_contain_text("Move 1 of 3")
    expect(speed).to_have_value(value)


def test_the_banner_button_the_page_focuses_after_a_drag_wears_no_ring(page: Page, open_game):
    open_game(page, rows=WIN_LEFT, seed=1)
    drag_left(page)
    keep_playing = page.locator("#status [data-intent=keep-playing]")
    expect(keep_playing).to_be_focused()
    assert page.evaluate(RING) == "none"
    keep_playing.click()
    open_game(page, rows=WIN_LEFT, seed=1)
    page.keyboard.press("ArrowLeft")  # the same win from the keyboard: the ring shows
    expect(keep_playing).to_be_focused()
    assert page.evaluate(RING) == "solid"
