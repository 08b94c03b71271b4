"""A page load that fails gets the site's own page, in the reader's language, with its status and
a way back to the game; the page's script keeps getting its short message fragments."""

import pytest

from tests.pages.pages_html import parse
from tests.pages.pages_site import LANGUAGES

NOT_FOUND = {"en": "Page not found", "pl": "Nie znaleziono strony", "ja": "ページが見つかりません"}


def error_page(answer, code: int, lang: str):
    """The parsed page, after the checks every error page passes."""
    assert answer.status_code == code
    assert answer.mimetype == "text/html"
    root = parse(answer.text)
    assert root.find("html").attrs["lang"] == lang
    hrefs = {a.attrs.get("href") for a in root.find_all("a")}
    assert f"/{lang}/" in hrefs, "a way back to the game"
    stylesheets = {link.attrs["href"] for link in root.find_all("link")
                   if link.attrs.get("rel") == "stylesheet"}
    assert "/static/css/base.css" in stylesheets
    assert root.find("h1").text == root.find("title").text.split(" — ")[0]
    return root


@pytest.mark.parametrize("lang", LANGUAGES)
def test_not_found_under_a_language_prefix_speaks_that_language(client, lang):
    root = error_page(client.get(f"/{lang}/no-such-page"), 404, lang)
    assert root.find("h1").text == NOT_FOUND[lang]


def test_not_found_elsewhere_speaks_the_readers_language(client):
    error_page(client.get("/no-such-page", headers={"Accept-Language": "pl"}), 404, "pl")
    client.get("/language/ja")
    error_page(client.get("/no/such/page", headers={"Accept-Language": "pl"}), 404, "ja")


def test_an_error_page_starts_no_session(client):
    answer = client.get("/ja/no-such-page")
    assert "csrf-token" not in answer.text
    assert client.get_cookie("session") is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_method_not_allowed_keeps_its_allow_header(client, lang):
    client.set_cookie("lang", lang)
    answer = client.get("/move")
    error_page(answer, 405, lang)
    assert "POST" in answer.headers["Allow"]


def test_a_server_error_is_the_sites_page(tmp_path, make_web_app):
    app = make_web_app(tmp_path / "failing")

    def broken():
        raise RuntimeError("a bug")

    app.add_url_rule("/broken", view_func=broken)
    answer = app.test_client().get("/broken", headers={"Accept-Language": "ja"})
    root = error_page(answer, 500, "ja")
    assert "a bug" not in answer.text
    assert root.find("p", "error-code").text == "エラー500"


def test_the_pages_script_still_gets_a_message_fragment(player):
    answer = player.post("/move", direction="sideways", seq="1")
    assert answer.status_code == 400
    assert answer.text.startswith('<p id="message"')
