"""The game page writes its scores and move count the reader's language's way, as every other
page does: "14,200" in English and Japanese, "14 200" (a no-break space) in Polish, where four
digits stay ungrouped ("1420"); so do its fragments, its end-of-game banner and what its live
region announces."""

import re

import pytest

from engine import Game
from tests.board_html import score_texts

MERGE_LEFT = [[512, 512, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]  # left scores 1024 points
OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
#: 14200 and 1420 as each language writes them.
WRITTEN = {"en": ("14,200", "1,420"), "pl": ("14\u00a0200", "1420"), "ja": ("14,200", "1,420")}
ANNOUNCEMENT = re.compile(r'<p id="announcement"[^>]*>([^<]*)</p>')
FINAL_SCORE = re.compile(r'<h2 id="status-title">[^<]*</h2>\s*<p>([^<]*)</p>')


def set_game(player, store, rows: list[list[int]], score: int, moves: int) -> None:
    """Put the player's game at `rows`, with `score` points in `moves` moves (made before its
    history starts)."""
    saved = Game.from_rows(rows, score=score, seed=3).to_saved()
    saved["start"]["moves"] = moves
    store.update(store.sid_of(player.client), game=Game.from_saved(saved))


def announced(html: str) -> str:
    """What the live region says, its closing full stop left out."""
    return ANNOUNCEMENT.search(html).group(1).rstrip(".。")


@pytest.mark.parametrize("lang", WRITTEN)
def test_the_score_boxes_group_the_digits_the_language_s_way(player, store, lang):
    five, four = WRITTEN[lang]
    set_game(player, store, MERGE_LEFT, score=14200, moves=1420)
    page = player.client.get(f"/{lang}/").text
    assert score_texts(page) == {"score": five, "best": five, "moves": four,
                                 "best-unassisted": five}


def test_polish_leaves_a_four_digit_score_ungrouped(player, store):
    set_game(player, store, MERGE_LEFT, score=1420, moves=14200)
    page = player.client.get("/pl/").text
    assert score_texts(page) == {"score": "1420", "best": "1420", "moves": "14\u00a0200",
                                 "best-unassisted": "1420"}


@pytest.mark.parametrize("lang, score, gain", [("en", "15,224", "+1,024"),
                                               ("pl", "15\u00a0224", "+1024"),
                                               ("ja", "15,224", "+1,024")])
def test_a_move_s_fragment_writes_the_score_its_gain_and_its_announcement_so(player, store,
                                                                              lang, score, gain):
    set_game(player, store, MERGE_LEFT, score=14200, moves=0)
    answer = player.post(f"/{lang}/move", direction="left", seq="1").text
    assert score_texts(answer)["score"] == score
    assert f'<span class="score-gain"><span>{gain}</span></span>' in answer
    assert announced(answer).endswith(score)


@pytest.mark.parametrize("lang", WRITTEN)
def test_game_over_writes_the_final_score_so(player, store, lang):
    five, _ = WRITTEN[lang]
    set_game(player, store, OVER, score=14200, moves=0)
    page = player.client.get(f"/{lang}/").text
    assert FINAL_SCORE.search(page).group(1).endswith(five)
    assert announced(page).endswith(five)
