"""What the page's live region says to a screen reader after each answer: a move and its score, a
merge's new score, a move that changes nothing, the win, and game over with the final score."""

import pytest
from playwright.sync_api import Page, expect

from engine import Game

pytestmark = pytest.mark.browser

TWO_TWOS = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]
NEAR_WIN = [[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]]
NEAR_LOSS = [[128, 16, 4, 128], [64, 128, 64, 16], [128, 32, 8, 4], [8, 128, 16, 0]]  # seed 5


def announced_after(page: Page, key: str, text: str) -> None:
    page.keyboard.press(key)
    live = page.locator("#announcement")
    expect(live).to_have_text(text)
    expect(live).to_have_attribute("aria-live", "polite")


def test_moves_merges_and_blocked_moves_are_announced(page: Page, open_game):
    open_game(page, TWO_TWOS, seed=3)
    expected = Game.from_rows(TWO_TWOS, seed=3)
    assert not expected.move("up")
    announced_after(page, "ArrowUp", "Nothing moves up.")
    assert expected.move("down") and expected.score == 0
    announced_after(page, "ArrowDown", "Moved down. Score: 0.")
    assert expected.move("left") and expected.score >= 4  # the two 2s merge
    announced_after(page, "ArrowLeft", f"Moved left. Score: {expected.score}.")


def test_the_win_is_announced(page: Page, open_game):
    open_game(page, NEAR_WIN, seed=7)
    announced_after(page, "ArrowLeft", "You made 2048! Keep playing or start a new game.")


def test_game_over_is_announced_with_the_final_score(page: Page, open_game):
    open_game(page, NEAR_LOSS, seed=5)
    expected = Game.from_rows(NEAR_LOSS, seed=5)
    assert expected.move("right") and expected.over
    announced_after(page, "ArrowRight", f"Game over. Final score: {expected.score}.")
