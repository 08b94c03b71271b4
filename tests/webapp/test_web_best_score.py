"""Best scores come from the browser's cookies and are only shown when they are sane integers."""

import pytest

from webapp.game.best_score import MAX_PLAUSIBLE_SCORE, parse_score


@pytest.mark.parametrize("raw", ["", None, "abc", "-5", "1e9", "12.5", " 7", "٣", str(MAX_PLAUSIBLE_SCORE + 1), "9" * 40])
def test_insane_values_count_as_zero(raw):
    assert parse_score(raw) == 0


def test_plain_integers_are_kept():
    assert parse_score("20480") == 20480


def test_page_renders_the_cookie_best_and_ignores_garbage(client):
    client.set_cookie("best", "1234")
    client.set_cookie("best_unassisted", "<script>")
    page = client.get("/").text
    assert '<span id="best" class="score-value">1234</span>' in page
    assert '<span id="best-unassisted">0</span>' in page
    assert "<script>" not in page.split('id="best-unassisted"')[1][:40]
