"""Text the game page shows and speaks, in every language: the hint's list, the board's label,
the scores' note; no separator is hard-wired English."""

import pytest
from flask_babel import force_locale

from engine import Game
from tests.pages.pages_html import parse
from tests.pages.pages_site import LANGUAGES
from webapp.game.rendering import render_hint
from webapp.store.game_record import GameRecord

# A tie with the best (up), a loss that rounds to nothing (down), a real loss (right).
VALUES = {"left": 5_000.0, "up": 5_000.0, "down": 4_999.6, "right": 4_321.2}
TIE = {"en": "as good as the best", "pl": "równie dobry", "ja": "最善手と同等"}


def hint_items(app, lang: str) -> dict[str, str]:
    with app.test_request_context("/hint", method="POST"), force_locale(lang):
        fragment, _headers = render_hint(GameRecord.start(Game.new(seed=1)), VALUES,
                                         in_points=True)
    return {li.attrs["data-direction"]: li.text
            for li in parse(fragment).find("div", "hint-values").find_all("li")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hint_never_shows_minus_zero_and_shows_ties_as_equal(app, lang):
    items = hint_items(app, lang)
    assert not any("−0" in text for text in items.values()), items
    assert items["up"].endswith(TIE[lang]) and items["down"].endswith(TIE[lang])
    assert "−679" in items["right"]


def test_hint_separators_are_the_languages_own(app):
    assert hint_items(app, "en")["right"] == "right: −679 points"
    assert hint_items(app, "pl")["right"] == "w prawo: −679 punktów"
    assert hint_items(app, "ja")["right"] == "右：−679点"


BOARD_START = {"en": "Board. Row 1: ", "pl": "Plansza. Rząd 1: ", "ja": "盤面。1段目："}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_label_reads_row_by_row_in_the_language(client, lang):
    label = parse(client.get(f"/{lang}/").text).find("div", "board").attrs["aria-label"]
    assert label.startswith(BOARD_START[lang])
    assert label.count({"ja": "段目", "pl": "Rząd", "en": "Row"}[lang]) == 4
    if lang == "ja":
        assert not any(mark in label for mark in (", ", ". ", ": ", ",", "."))
        assert label.count("、") == 12 and label.endswith("。")


def test_scores_note_has_no_space_after_a_japanese_colon(client):
    note = parse(client.get("/ja/").text).find("p", "score-note")
    assert note.text.startswith("アシストなしのベスト：0")
    assert note.find("span").attrs["id"] == "best-unassisted"


NEAR_WIN = [[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]]
OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
#: The win's and the end's overlay (title, text, buttons), then what the live region speaks.
WIN = {
    "pl": ["Wygrana!", "Graj dalej", "Nowa gra", "Udostępnij",
           "Wygrana! Masz kafelek 2048. Graj dalej albo zacznij nową grę."],
    "ja": ["ゲームクリア！", "続ける", "新しいゲーム", "シェア",
           "ゲームクリア！「続ける」か「新しいゲーム」を選んでください。"],
}
GAME_OVER = {
    "pl": ["Koniec gry", "Wynik końcowy: 100", "Udostępnij", "Zagraj jeszcze raz",
           "Koniec gry. Wynik końcowy: 100."],
    "ja": ["ゲームオーバー", "最終スコア：100", "シェア", "もう一度",
           "ゲームオーバー。最終スコア：100。"],
}


def overlay_and_announcement(fragment: str) -> list[str]:
    root = parse(fragment)
    overlay = root.find("div", "overlay")
    spoken = root.find_all("p", where=lambda node: node.attrs.get("id") == "announcement")
    return [node.text for node in overlay.iter() if node.tag in ("h2", "p", "button")] + [
        spoken[0].text]


@pytest.mark.parametrize("lang", ["pl", "ja"])
def test_the_win_and_the_end_of_a_game_are_told_in_the_language(player, store, lang):
    player.client.set_cookie("lang", lang)
    sid = store.sid_of(player.client)
    store.update(sid, game=Game.from_rows(NEAR_WIN, seed=7))
    assert overlay_and_announcement(player.move("left").text) == WIN[lang]
    store.update(sid, game=Game.from_rows(OVER, score=100, seed=0))
    state = player.client.get(f"/state?game={player.game}")
    assert overlay_and_announcement(state.text) == GAME_OVER[lang]
