"""A press moves the tiles at once: the page plays the slide the server sent with the board, and
the new tile comes with the answer; an answer of several moves is drawn one move at a time; an
answer other than what was drawn shows the server's board. Tabs of one browser follow each
other's moves; a press made on a board the game has left is refused with a message.

Each test holds the first move's request (page.route) to look at the page before its answer."""

import json
from datetime import datetime

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


class HeldBatch(HeldMoves):
    """Holds the first /move request and the one after it (the moves pressed meanwhile)."""

    def answer(self, route, number: int) -> None:
        self.held.append(route)

    def wait_until_batch_held(self) -> None:
        for _ in range(200):
            if len(self.held) == 2:
                return
            self.page.wait_for_timeout(25)
        pytest.fail("the batch was never sent")

    def release_batch(self) -> None:
        self.held[1].continue_()


def played_in_turn(game: Game, count: int) -> list[tuple[str, list[list[int]]]]:
    """`count` moves, each legal in turn, played on `game`: (direction, the board it left)."""
    order = ("left", "up", "right", "down")
    played = []
    for step in range(count):
        legal = game.legal_moves()
        direction = next(d for d in order[step % 4:] + order if d in legal)
        game.move(direction)
        played.append((direction, rows_of(game)))
    return played


#: A batch of six moves is shown whole within this much page time of its answer: well under
#: 90 ms a move, the pace of every batch before (450 ms for the five after the one drawn ahead).
CATCH_UP_BOUND_MS = 250
#: One frame at 60 Hz.
FRAME_MS = 17
TICK_MS = 5


def draw_a_held_batch(page: Page, routes, server, open_game, answer_after_ms: int):
    """Press a move (held), then six more: they go together once it is answered, the first of
    them drawn ahead as they go; their answer is let through `answer_after_ms` of page time
    later. The page's timers run on Playwright's clock, paused, then stepped TICK_MS at a time,
    so what is measured is page time, whatever the machine's load. Checks that each of the six
    moves' boards is shown, in order; answers when each first showed (page ms since the answer)
    and the slide the page set for the batch's moves (ms)."""
    page.clock.install(time=datetime(2026, 1, 1))
    record_posts(page)
    sid = open_game(page, START, seed=3)
    page.clock.pause_at(datetime(2026, 1, 1, 1))
    (first, _), *batch = played_in_turn(server.store.game(sid), 7)
    hold = HeldBatch(page, routes)
    page.keyboard.press(ARROWS[first])
    hold.wait_until_held()
    for direction, _ in batch:
        page.keyboard.press(ARROWS[direction])
    hold.release()
    hold.wait_until_batch_held()
    page.clock.run_for(answer_after_ms)
    hold.release_batch()
    expect(page.locator("#moves")).to_have_text("7")
    assert moves_sent(page) == [f"direction={first}&seq=1",
                                "&".join(f"direction={d}" for d, _ in batch) + "&seq=2"]
    batch_slide = page.evaluate(
        "document.getElementById('board').style.getPropertyValue('--slide')")
    shown = []
    for elapsed in range(0, 1000, TICK_MS):
        board = shown_board(page)
        if not shown or shown[-1][1] != board:
            shown.append((elapsed, board))
        if not page.locator("#board[data-drawing]").count():
            break
        page.clock.run_for(TICK_MS)
    boards = [rows for _, rows in batch]
    moves = [(at, board) for at, board in shown if board in boards]
    assert [board for _, board in moves] == boards  # each move, in order
    return [at for at, _ in moves], int(batch_slide.removesuffix("ms"))


def test_a_batch_of_six_moves_catches_up_drawing_each_move_in_turn(
        page: Page, routes, server, open_game):
    """The answer of six moves is drawn a move at a time, in order; the last is shown within
    CATCH_UP_BOUND_MS of the answer (450 ms at 90 ms a move), each move at least two frames, its
    slide over a frame before the next one starts (no tile turns a corner mid-slide)."""
    shown_at, slide_ms = draw_a_held_batch(page, routes, server, open_game, answer_after_ms=1000)
    assert shown_at[-1] <= CATCH_UP_BOUND_MS
    gaps = [later - earlier for earlier, later in zip(shown_at, shown_at[1:])]
    assert min(gaps) >= 2 * FRAME_MS
    assert slide_ms + FRAME_MS <= min(gaps)


def test_a_quick_batch_answer_waits_for_the_move_drawn_ahead_to_end(
        page: Page, routes, server, open_game):
    """An answer that comes while the batch's first move, drawn ahead, is still sliding: the
    next move starts only once that slide is over, so no tile turns a corner mid-slide."""
    shown_at, _ = draw_a_held_batch(page, routes, server, open_game, answer_after_ms=0)
    slide_ms = int(page.evaluate("getComputedStyle(document.getElementById('board'))"
                                 ".getPropertyValue('--slide-ms')"))
    assert shown_at[1] >= slide_ms


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
