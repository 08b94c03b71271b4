"""The page and the store, in a real Chromium: presses faster than the limits allow all land,
in order, a page whose game vanished carries on by itself, and a page whose game the store
lost moves of says so."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browser_support import expect_number
from tests.damage_support import keep_as_current, played
from webapp.store.sessions import RENEWED

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
    start = server.store.game(sid)
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
    assert stored["game"] == start.position
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
    renewed = server.sid_of(page.context)  # a game begun takes a fresh session id
    assert renewed != sid and server.store.session(sid) == RENEWED
    fresh = server.store.read(renewed)["id"]
    assert fresh != gone
    board = server.store.game(renewed)
    page.keyboard.press(KEYS[board.legal_moves()[0]])
    expect(page.locator("#moves")).to_have_text("1")
    assert server.store.read(renewed)["id"] == fresh and server.store.read(renewed)["seq"] == 1


def test_a_page_shown_moves_the_store_lost_says_so_and_shows_the_server_s_board(
        page: Page, server, open_game):
    """As after a failover to a copy of the store that lacked the last moves: the page showed
    move 12, the server now has the game at move 8. The next press is answered with move 8's
    board and a message, never a silent jump back; the press after it plays on from there."""
    sid = open_game(page)
    keep_as_current(server.store, sid, played(12, seed=7))
    page.reload()
    expect_number(page.locator("#moves"), 12)
    earlier = played(8, seed=7)
    keep_as_current(server.store, sid, earlier)
    page.keyboard.press(KEYS[played(12, seed=7).legal_moves()[0]])
    message = page.locator("#message")
    expect(message).to_contain_text("The server lost your latest moves")
    expect_number(page.locator("#moves"), 8)
    expect_number(page.locator("#score"), earlier.score)
    page.keyboard.press(KEYS[earlier.legal_moves()[0]])
    expect_number(page.locator("#moves"), 9)
    expect(message).to_have_text("")
    assert server.store.read(sid)["seq"] == 9
