"""A game's history in a real Chromium: undo by its button, U and Ctrl+Z; stepping through the
replay with keys, buttons, the slider and play/pause; the review's progress bar as the page
polls it, and its result; the history's pages on a 360-px phone."""

from __future__ import annotations

import time
from datetime import datetime

import pytest
from playwright.sync_api import Page, expect

from engine import Game
from tests.browser.browser_support import expect_number, settle, shown_board
from tests.history_support import wait_for_review
from webapp.review import WORKER
from webapp.review import model as reviews
from webapp.review.model import RUNNING, Review

pytestmark = pytest.mark.browser

START = [[2, 0, 0, 2], [0, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0]]
KEYS = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"]
CLOCK_START = datetime(2026, 1, 1, 12, 0, 0)


def answered(page: Page, act, moves: int) -> None:
    """Do `act` and wait until the page shows its answer: `moves` moves made, tiles settled."""
    act()
    expect_number(page.locator("#moves"), moves)
    settle(page)


def play_moves(page: Page, count: int) -> list[list[list[int]]]:
    """Play `count` moves with the arrow keys (each one legal in the games played here); the
    board after each (the first: before any)."""
    boards = [shown_board(page)]
    for index in range(count):
        answered(page, lambda: page.keyboard.press(KEYS[index % 4]), index + 1)
        boards.append(shown_board(page))
    return boards


def test_undo_by_button_u_and_ctrl_z_takes_the_move_back_and_the_same_move_the_same_tile(
        page: Page, open_game):
    open_game(page, rows=START, seed=11)
    start = shown_board(page)
    answered(page, lambda: page.keyboard.press("ArrowLeft"), 1)
    after_left = shown_board(page)
    assert after_left != start
    for undo in (lambda: page.click("#undo-button"), lambda: page.keyboard.press("u"),
                 lambda: page.keyboard.press("Control+z")):
        with page.expect_request("**/undo") as request:
            answered(page, undo, 0)
        assert "seq=" in request.value.post_data
        assert shown_board(page) == start
        expect(page.locator("#assisted")).to_be_visible()  # an undo is help
        answered(page, lambda: page.keyboard.press("ArrowLeft"), 1)
        assert shown_board(page) == after_left  # the same tile on the same cell
    expect(page.locator("#announcement")).to_contain_text("Moved left")
    answered(page, lambda: page.keyboard.press("u"), 0)
    expect(page.locator("#announcement")).to_have_text("Move taken back. Score: 0.")


def position_shown(page: Page, move: int, total: int) -> None:
    expect(page.locator("#replay-position")).to_contain_text(f"Move {move} of {total}")


def test_the_replay_steps_with_keys_buttons_the_slider_and_plays_and_pauses(page: Page,
                                                                              open_game, server):
    open_game(page, rows=START, seed=11)
    boards = play_moves(page, 8)
    game_id = page.locator("#game").get_attribute("data-game")
    page.clock.install(time=CLOCK_START)  # the replay's timers on a clock the test can stop
    page.click("#replay-link")
    expect(page).to_have_url(f"{server.url}/en/games/{game_id}")
    page.wait_for_load_state()  # the viewer's script is running
    position_shown(page, 8, 8)
    assert shown_board(page) == boards[8]

    page.keyboard.press("Home")
    position_shown(page, 0, 8)
    assert shown_board(page) == boards[0]
    page.keyboard.press("ArrowRight")
    position_shown(page, 1, 8)
    expect(page.locator("#board .tile[data-new]")).to_have_count(1)  # a step forward animates
    settle(page)
    assert shown_board(page) == boards[1]
    page.click("[data-step=next]")
    position_shown(page, 2, 8)
    assert shown_board(page) == boards[2]
    expect(page).to_have_url(f"{server.url}/en/games/{game_id}?move=2")
    page.keyboard.press("ArrowLeft")
    position_shown(page, 1, 8)
    expect(page.locator("#board .tile[data-new]")).to_have_count(0)  # a step back: in place
    assert shown_board(page) == boards[1]
    expect(page.locator("#replay-announcement")).to_have_text("Move 1 of 8. Score: 4.")
    page.keyboard.press("End")
    position_shown(page, 8, 8)
    page.click("[data-step=first]")
    position_shown(page, 0, 8)
    page.locator("#replay-slider").fill("5")
    position_shown(page, 5, 8)
    assert shown_board(page) == boards[5]
    page.click("[data-step=last]")
    position_shown(page, 8, 8)
    page.click("[data-step=previous]")
    position_shown(page, 7, 8)
    expect(page.locator("#replay-slider")).to_have_value("7")

    page.locator("#replay-speed").fill("10")
    page.click("#replay-play")  # from 7: plays to the end and stops by itself
    position_shown(page, 8, 8)
    expect(page.locator("#replay-play")).to_have_text("Play")
    page.clock.pause_at(CLOCK_START.replace(hour=13))  # from here, time moves when told to
    page.locator("#replay-speed").fill("1")
    page.click("#replay-play")  # at the end: from the start again, a move a second
    expect(page.locator("#replay-play")).to_have_text("Pause")
    position_shown(page, 1, 8)
    page.clock.run_for(1000)
    position_shown(page, 2, 8)  # the positive control: a second later, the next move
    page.click("#replay-play")  # pause
    expect(page.locator("#replay-play")).to_have_text("Play")
    page.clock.run_for(10_000)
    position_shown(page, 2, 8)
    expect(page.locator("#replay-slider")).to_have_value("2")

    page.goto(f"{server.url}/games/{game_id}?move=3")
    position_shown(page, 3, 8)
    assert shown_board(page) == boards[3]


def write_review(server, game_id: str, review: Review) -> None:
    queue = server.app.extensions[WORKER].queue
    assert queue.replace_review(game_id, queue.review(game_id), review.to_text())


def test_the_review_shows_its_progress_as_it_goes_then_its_result(page: Page, open_game,
                                                                   server):
    open_game(page, rows=START, seed=11)
    play_moves(page, 12)
    game_id = page.locator("#game").get_attribute("data-game")
    record = server.app.extensions["games"].get(game_id)
    asked = Review.asked(record.game.history)
    running = Review(asked.moves, asked.digest, RUNNING, done=3, updated=time.time())
    write_review(server, game_id, running)  # as another worker running it would write it

    page.goto(f"{server.url}/games/{game_id}/review")
    progress = page.locator("#review-progress")
    expect(progress).to_have_attribute("max", "12")
    expect(progress).to_have_attribute("value", "3")
    expect(page.locator("#review")).to_contain_text("Reviewed 3 of 12 moves")
    write_review(server, game_id, running.progressed(9))
    expect(progress).to_have_attribute("value", "9")  # the page polled it
    write_review(server, game_id, running.failed())
    expect(page.locator("#review")).to_contain_text("The review could not be finished.")
    expect(progress).to_have_count(0)

    page.click("#review-ask")  # a real review, this time
    expect(page.locator("#review svg.chart")).to_be_visible(timeout=120_000)
    expect(page.locator("#review")).not_to_contain_text("could not be finished")
    expect(page.locator("#review-announcement")).to_have_text("The review is finished.")
    stored = server.app.extensions[WORKER].stored(game_id)
    assert stored.state == reviews.DONE and stored.moves == 12
    links = page.locator("#review .costly-table tbody a")
    if links.count():  # a costly move links to the position it was played from
        move = int(links.first.get_attribute("href").rsplit("=", 1)[1])
        links.first.click()
        position_shown(page, move, 12)
        expect(page.locator("#replay-position")).to_contain_text("Played next:")


@pytest.mark.parametrize("path", ["/games/{id}", "/games/{id}/review", "/games"])
def test_the_history_pages_fit_a_360_px_phone(new_context, server, artifacts, path):
    page = new_context(viewport={"width": 360, "height": 640}, is_mobile=True,
                       has_touch=True).new_page()
    page.goto(server.url)
    record = server.store.record(server.sid_of(page.context))
    game = Game.from_rows(START, seed=11)
    for direction in ("left", "up", "right", "down") * 3:
        game.move(direction)
    record.game, record.played, record.seq = game, True, game.moves
    assert server.store.games.replace(record)
    server.app.extensions[WORKER].ask(record, "127.0.0.1", "session:the-page")
    wait_for_review(server.app, record.id)
    page.goto(server.url + path.format(id=record.id))
    assert page.evaluate("document.documentElement.scrollWidth") == 360
    name = path.format(id="game").strip("/").replace("/", "-")
    page.screenshot(path=artifacts / f"history-{name}-360.png", full_page=True)


def test_without_script_the_review_is_asked_for_and_followed_by_reloads(page: Page, open_game,
                                                                        server, new_context):
    open_game(page, rows=START, seed=11)
    play_moves(page, 6)
    game_id = page.locator("#game").get_attribute("data-game")
    plain = new_context(java_script_enabled=False)
    plain.add_cookies(page.context.cookies())
    reader = plain.new_page()
    reader.goto(f"{server.url}/en/games/{game_id}/review")
    with reader.expect_navigation():
        reader.click("#review-ask")  # a form posted by the browser itself
    assert reader.url == f"{server.url}/en/games/{game_id}/review"  # redirected: a reload asks nothing
    expect(reader.locator("#review svg.chart")).to_be_visible(timeout=120_000)  # reloaded itself
    stored = server.app.extensions[WORKER].stored(game_id)
    assert stored.state == reviews.DONE and stored.moves == 6
