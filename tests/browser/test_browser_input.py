"""Pointer input on the board, through real events: a mouse drag and a touch swipe move in each of
the four directions, shorter than the minimum distance they move nothing, and a swipe never
scrolls the page. Touch goes through CDP's Input.dispatchTouchEvent (page.touchscreen only taps).

"Moved nothing" is checked without waiting: after a short drag, a long one is made, and the first
move the page sends must be the long one's, numbered 1."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.browser_support import phone_device
from tests.browser.page_posts import named_move
from webapp.game.controls import SWIPE_MIN_DISTANCE_PX

pytestmark = pytest.mark.browser

#: How far a full swipe goes, and in which direction, as (dx, dy) in CSS pixels.
SWIPES = {"up": (0, -100), "down": (0, 100), "left": (-100, 0), "right": (100, 0)}
JUST_SHORT = SWIPE_MIN_DISTANCE_PX - 2
JUST_LONG = SWIPE_MIN_DISTANCE_PX + 2


def board_centre(page: Page) -> tuple[float, float]:
    box = page.locator("#board").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page: Page, delta: tuple[float, float]) -> None:
    x, y = board_centre(page)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + delta[0], y + delta[1], steps=8)
    page.mouse.up()


def touch_swipe(page: Page, delta: tuple[float, float]) -> None:
    x, y = board_centre(page)
    cdp = page.context.new_cdp_session(page)
    touch = "Input.dispatchTouchEvent"
    cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 9):
        point = {"x": x + delta[0] * step / 8, "y": y + delta[1] * step / 8}
        cdp.send(touch, {"type": "touchMove", "touchPoints": [point]})
    cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def sent_move(page: Page, gesture) -> str:
    """The move the gesture makes the page send ("direction=up&seq=1")."""
    with page.expect_request("**/move") as request:
        gesture()
    return named_move(request.value.post_data)


def test_a_mouse_drag_moves_in_each_direction(page: Page, server):
    page.goto(server.url)
    for seq, (direction, delta) in enumerate(SWIPES.items(), start=1):
        body = sent_move(page, lambda: mouse_drag(page, delta))
        assert body == f"direction={direction}&seq={seq}"


@pytest.fixture
def phone_page(new_context, playwright) -> Page:
    """A page on a phone-sized context with touch."""
    return new_context(**phone_device(playwright)).new_page()


def test_a_touch_swipe_moves_in_each_direction_without_scrolling_the_page(phone_page, server):
    page = phone_page
    page.goto(server.url)
    page.evaluate("() => window.scrollTo(0, 40)")
    scrolled = page.evaluate("() => window.scrollY")
    for seq, (direction, delta) in enumerate(SWIPES.items(), start=1):
        body = sent_move(page, lambda: touch_swipe(page, delta))
        assert body == f"direction={direction}&seq={seq}"
        assert page.evaluate("() => window.scrollY") == scrolled


def test_a_mouse_drag_shorter_than_the_minimum_moves_nothing(page: Page, server):
    page.goto(server.url)
    mouse_drag(page, (JUST_SHORT, 0))
    assert sent_move(page, lambda: mouse_drag(page, (0, JUST_LONG))) == "direction=down&seq=1"


def test_a_touch_swipe_shorter_than_the_minimum_moves_nothing(phone_page, server):
    page = phone_page
    page.goto(server.url)
    touch_swipe(page, (-JUST_SHORT, 0))
    assert sent_move(page, lambda: touch_swipe(page, (0, -JUST_LONG))) == "direction=up&seq=1"
