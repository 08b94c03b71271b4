"""Addresses people type: the game under each language prefix, the pages without one."""

import pytest

from tests.pages.pages_html import parse
from tests.pages.pages_site import LANGUAGES, PAGES

NEW_GAME = {"en": "New game", "pl": "Nowa gra", "ja": "新しいゲーム"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_language_prefix_alone_is_the_game_in_that_language(client, lang):
    answer = client.get(f"/{lang}/", headers={"Accept-Language": "de"})
    assert answer.status_code == 200
    root = parse(answer.text)
    assert root.find("html").attrs["lang"] == lang
    assert root.find("section", "game").attrs["id"] == "game"
    assert NEW_GAME[lang] in root.find("button", "button").text


def test_the_prefix_without_its_slash_goes_to_the_game(client):
    answer = client.get("/pl")
    assert answer.status_code == 308
    assert answer.headers["Location"].endswith("/pl/")


def test_every_language_shows_the_same_game(client):
    tiles = {lang: parse(client.get(f"/{lang}/").text).find("div", "board").find_all("div", "tile")
             for lang in LANGUAGES}
    boards = {lang: sorted((t.attrs["data-row"], t.attrs["data-col"], t.attrs["data-value"])
                           for t in found) for lang, found in tiles.items()}
    assert boards["pl"] == boards["en"] == boards["ja"]


@pytest.mark.parametrize("page_name", PAGES)
def test_a_page_without_a_language_follows_the_browser(client, page_name):
    answer = client.get(f"/{page_name}", headers={"Accept-Language": "ja,en;q=0.5"})
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/ja/{page_name}"
    assert {"Cookie", "Accept-Language"} <= set(answer.vary)


def test_a_page_without_a_language_follows_the_remembered_choice_first(client):
    client.get("/language/pl")
    answer = client.get("/strategy", headers={"Accept-Language": "ja"})
    assert answer.headers["Location"] == "/pl/strategy"


def test_choosing_a_language_goes_to_the_game_in_it(client):
    answer = client.get("/language/ja")
    assert answer.headers["Location"] == "/ja/"
    assert client.get_cookie("lang").value == "ja"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_navigation_keeps_the_language(client, lang):
    nav = parse(client.get(f"/{lang}/").text).find("ul", "site-nav")
    assert [a.attrs["href"] for a in nav.find_all("a")] == (
        [f"/{lang}/"] + [f"/{lang}/{page}" for page in PAGES] + [f"/{lang}/records"])
    assert nav.find_all("a")[0].attrs.get("aria-current") == "page"


@pytest.mark.parametrize("path", ["/en/records", "/en/records/daily"])
def test_the_navigation_marks_records_on_both_tables(client, path):
    nav = parse(client.get(path).text).find("ul", "site-nav")
    current = [a.attrs["href"] for a in nav.find_all("a") if a.attrs.get("aria-current")]
    assert current == ["/en/records"]


def test_the_game_in_a_language_draws_on_a_page_budget(tmp_path, make_web_app):
    client = make_web_app(tmp_path / "limited", PAGE_RATE_LIMIT="2/minute").test_client()
    assert [client.get(path).status_code for path in ("/pl/", "/ja/", "/en/")] == [200, 200, 429]
