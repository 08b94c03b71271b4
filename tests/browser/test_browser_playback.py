"""A press moves the tiles at once: the page plays the slide the server sent with the board, and
the new tile comes with the answer; an answer of several moves is drawn one move at a time; an
answer other than what was drawn shows the server's board. Tabs of one browser follow each
other's moves; a press made on a board the game has left is refused with a message.

Each test holds the first move's request (page.route) to look at the page before its answer."""

import json

import pytest
from playwright.sync_api import Page, expect

from engine import Game
from tests.browser.browser_support import settle, shown_board
from tests.browser.page_posts import moves_sent, posts_sent, record_posts
from tests.browser.test_browser_batches import ARROWS, START, HeldMoves

pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="block")]

#: START pushed left, before its new tile: the two 2s made a 4, the 4 went to the row's start.
START_SLID_LEFT = [[4, 0, 0, 0], [0] * 4, [0] * 4, [4, 0, 0, 0]]
OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
STALE = "moved on in another tab"

# Notes each board the page shows (its tiles not leaving a merge), as it changes.
RECORD_BOARDS = """
window.boards = [];
const note = () => {
  const board = document.getElementById("board");
  if (!board) return;
  const rows = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
  for (const tile of board.querySelectorAll(".tile:not([data-leaving])")) {
    rows[Number(tile.dataset.row)][Number(tile.dataset.col)] = Number(tile.dataset.value);
  }
  const text = JSON.stringify(rows);
  if (window.boards[window.boards.length - 1] !== text) window.boards.push(text);
};
new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true });
"""


def rows_of(game: Game) -> list[list[int]]:
    return [list(row) for row in game.rows]


def test_a_press_moves_the_tiles_before_its_answer_and_the_new_tile_comes_with_it(
        page: Page, routes, server, open_game):
    sid = open_game(page, START, seed=3)
    expected = server.store.game(sid)
    expected.move("left")
    hold = HeldMoves(page, routes)
    page.keyboard.press("ArrowLeft")
    hold.wait_until_held()
    assert shown_board(page) == START_SLID_LEFT  # moved at once, no new tile yet
    hold.release()
    expect(page.locator("#moves")).to_have_text("1")
    settle(page)
    assert shown_board(page) == rows_of(expected)
    assert page.locator("#board .tile[data-new]").count() == 1


def test_an_answer_other_than_the_move_drawn_shows_the_servers_board(
        page: Page, routes, server, open_game):
    """While the press is in flight the game changes behind the page (as a store written by
    another server could): the answer is not the board drawn, and the page shows the server's."""
    sid = open_game(page, START, seed=3)
    hold = HeldMoves(page, routes)
    page.keyboard.press("ArrowLeft")
    hold.wait_until_held()
    other = [[8, 0, 0, 2], [0] * 4, [0, 16, 0, 0], [0] * 4]
    server.store.update(sid, game=Game.from_rows(other, seed=4))
    expected = Game.from_rows(other, seed=4)
    expected.move("left")
    hold.release()
    expect(page.locator("#moves")).to_have_text("1")
    settle(page)
    assert shown_board(page) == rows_of(expected)


def test_an_answer_of_several_moves_is_drawn_one_move_at_a_time(
        page: Page, routes, server, open_game):
    page.add_init_script(RECORD_BOARDS)
    record_posts(page)
    sid = open_game(page, START, seed=3)
    game = server.store.game(sid)
    hold = HeldMoves(page, routes)
    page.keyboard.press("ArrowLeft")
    hold.wait_until_held()
    for direction in ("up", "right", "down"):
        page.keyboard.press(ARROWS[direction])
    hold.release()
    expected = []
    for direction in ("left", "up", "right", "down"):
        game.move(direction)
        expected.append(rows_of(game))
    page.wait_for_function("(last) => window.boards.at(-1) === last",
                           arg=json.dumps(expected[-1], separators=(",", ":")))
    shown = [json.loads(board) for board in page.evaluate("window.boards")]
    assert [board for board in shown if board in expected] == expected  # each move, in order
    assert moves_sent(page) == ["direction=left&seq=1",
                                "direction=up&direction=right&direction=down&seq=2"]


def test_a_tab_shows_the_board_another_tab_moved_to_before_its_next_press(
        page: Page, routes, server, open_game):
    sid = open_game(page, START, seed=3)
    other = page.context.new_page()
    other.goto(server.url)
    other.keyboard.press("ArrowLeft")
    expect(other.locator("#moves")).to_have_text("1")
    expect(page.locator("#moves")).to_have_text("1")  # no press in this tab
    settle(page)
    moved = server.store.game(sid)
    assert shown_board(page) == rows_of(moved)
    page.keyboard.press("ArrowUp")
    expect(page.locator("#moves")).to_have_text("2")
    moved.move("up")
    assert server.store.read(sid)["game"] == moved.position
    expect(page.locator("#message")).to_have_text("")


def test_a_press_on_a_board_the_game_has_left_is_refused_with_a_message(
        page: Page, routes, server, open_game):
    """The other tab cannot tell this one (no BroadcastChannel, as in a browser without it): this
    tab's presses, made on the old board, are refused together, said so, and the board shown is
    the server's."""
    record_posts(page)
    sid = open_game(page, START, seed=3)
    other = page.context.new_page()
    other.add_init_script("delete window.BroadcastChannel")
    other.goto(server.url)
    other.keyboard.press("ArrowDown")
    expect(other.locator("#moves")).to_have_text("1")
    after_other = server.store.read(sid)
    hold = HeldMoves(page, routes)
    page.keyboard.press("ArrowLeft")
    hold.wait_until_held()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    hold.release()
    expect(page.locator("#message")).to_contain_text(STALE)
    settle(page)
    assert shown_board(page) == rows_of(server.store.game(sid))
    assert moves_sent(page) == ["direction=left&seq=1"]  # the two behind it were dropped too
    assert server.store.read(sid) == after_other
    page.keyboard.press("ArrowUp")  # the next press plays, on the board shown
    expect(page.locator("#moves")).to_have_text("2")
    expect(page.locator("#message")).to_have_text("")


def test_presses_on_a_finished_game_send_nothing(page: Page, open_game):
    record_posts(page)
    open_game(page, OVER, seed=1)
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    page.keyboard.press("u")  # an undo still goes: it may bring the game back
    expect(page.locator("#moves")).to_have_text("0")
    assert [post.split(" ")[0] for post in posts_sent(page)] == ["/en/undo"]
