"""The page and the store, in a real Chromium: presses faster than the limits allow all land,
in order, and a page whose game vanished carries on by itself."""

import pytest
from playwright.sync_api import Page, expect

from engine import Game
from tests.browser.browser_support import expect_number

pytestmark = pytest.mark.browser

KEYS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
PRESSES = [("left", "up", "right", "down", "left", "down")[i % 6] for i in range(60)]


def test_sixty_presses_without_a_pause_are_all_applied_in_order(page: Page, serve):
    """Faster than the move budget (here 8 a second: a slow machine still presses faster)
    allows: each 429 is waited out (Retry-After) and the same move sent again; none is
    dropped, none is doubled."""
    server = serve(MOVE_RATE_LIMIT="8/second")
    page.goto(server.url)
    sid = server.sid_of(page.context)
    start = Game.from_dict(server.store.read(sid)["game"])
    answers = []
    page.on("response", lambda response: answers.append(response.status)
            if response.url.endswith("/move") else None)
    for direction in PRESSES:
        page.keyboard.press(KEYS[direction])
    for _ in range(600):
        if server.store.read(sid)["seq"] == len(PRESSES):
            break
        page.wait_for_timeout(50)
    for direction in PRESSES:
        start.move(direction)
    stored = server.store.read(sid)
    assert stored["seq"] == len(PRESSES)
    assert stored["game"] == start.to_dict()
    assert 429 in answers  # the limit was met, and waited out
    expect_number(page.locator("#moves"), start.moves)


def test_a_game_that_vanishes_under_an_open_page_is_replaced_on_the_next_press(
        page: Page, server, open_game):
    sid = open_game(page, [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    gone = server.store.read(sid)["id"]
    with server.app.extensions["games"].database.transaction() as connection:
        connection.execute("DELETE FROM games WHERE id = ?", (gone,))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#message")).to_contain_text("no longer on the server")
    expect(page.locator("#moves")).to_have_text("0")
    fresh = server.store.read(sid)["id"]
    assert fresh != gone
    board = Game.from_dict(server.store.read(sid)["game"])
    page.keyboard.press(KEYS[board.legal_moves()[0]])
    expect(page.locator("#moves")).to_have_text("1")
    assert server.store.read(sid)["id"] == fresh and server.store.read(sid)["seq"] == 1
