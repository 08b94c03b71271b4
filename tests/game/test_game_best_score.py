"""Best scores come from the browser's cookies and are only shown when they are sane integers."""

import pytest

from engine import Game
from tests.board_html import shown_scores
from webapp.game.best_score import MAX_PLAUSIBLE_SCORE, parse_score


@pytest.mark.parametrize("raw", ["", None, "abc", "-5", "1e9", "12.5", " 7", "٣", str(MAX_PLAUSIBLE_SCORE + 1), "9" * 40])
def test_insane_values_count_as_zero(raw):
    assert parse_score(raw) == 0


def test_plain_integers_are_kept():
    assert parse_score("20480") == 20480


def shown_bests(html: str) -> tuple[int, int]:
    shown = shown_scores(html)
    return shown["best"], shown["best-unassisted"]


def test_page_renders_the_cookie_best_and_ignores_garbage(client):
    client.set_cookie("best", "1234")
    client.set_cookie("best_unassisted", "<script>")
    page = client.get("/").text
    assert shown_bests(page) == (1234, 0)
    assert "<script>" not in page.split('id="best-unassisted"')[1][:40]


def test_a_hinted_game_raises_the_best_score_but_not_the_best_without_help(player, store):
    """The remembered bests are 10; a game at 100 raises both until a hint is asked for."""
    player.client.set_cookie("best", "10")
    player.client.set_cookie("best_unassisted", "10")
    rows = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]
    store.update(store.sid_of(player.client), game=Game.from_rows(rows, score=100, seed=3))
    assert shown_bests(player.client.get("/").text) == (100, 100)
    assert shown_bests(player.post("/hint").text) == (100, 10)
    assert shown_bests(player.move("left").text) == (104, 10)  # 2 + 2 merged: 4 points
    assert shown_bests(player.client.get("/").text) == (104, 10)
    assert shown_bests(player.post("/new").text) == (10, 10)  # a fresh, unassisted game
