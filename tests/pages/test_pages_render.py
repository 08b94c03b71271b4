"""Every page answers in every language, in that language, and links back to the game."""

import pytest

from tests.pages.pages_html import parse
from tests.pages.pages_site import LANGUAGES, PAGES


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page_name", PAGES)
def test_page_answers_in_its_language(client, page_name, lang):
    response = client.get(f"/{lang}/{page_name}")
    assert response.status_code == 200
    root = parse(response.text)
    assert root.find("html").attrs["lang"] == lang
    assert len(root.find_all("h1")) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page_name", PAGES)
def test_page_links_to_the_game_and_its_translations(client, page_name, lang):
    links = parse(client.get(f"/{lang}/{page_name}").text).find_all("a")
    hrefs = {a.attrs.get("href") for a in links}
    assert f"/{lang}/" in hrefs
    assert {f"/{other}/{page_name}" for other in LANGUAGES} <= hrefs


def test_unknown_language_is_not_found(client):
    assert client.get("/de/rules").status_code == 404


@pytest.mark.parametrize("page_name", PAGES)
def test_translations_share_one_structure(client, page_name):
    """Same sections, same example boards, same tables: only the prose differs."""
    def outline(lang):
        root = parse(client.get(f"/{lang}/{page_name}").text)
        return (
            [node.attrs["id"] for node in root.find_all("section")],
            [len(fig.find_all(cls="example-board")) for fig in root.find_all("figure", "example")],
            [table.attrs.get("class") for table in root.find_all("table")],
        )
    english = outline("en")
    assert outline("pl") == english
    assert outline("ja") == english


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page_name", PAGES)
def test_markup_suits_a_strict_content_security_policy(client, page_name, lang):
    root = parse(client.get(f"/{lang}/{page_name}").text)
    assert not root.find_all(where=lambda node: "style" in node.attrs)
    assert not root.find_all("style")
    for script in root.find_all("script"):
        assert script.attrs.get("src") or script.attrs.get("type") == "application/json"
    assert not root.find_all(where=lambda node: any(name.startswith("on") for name in node.attrs))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page_name", PAGES)
def test_tables_and_headings_are_accessible(client, page_name, lang):
    """Every data cell has a column header and a row header; headings never skip a level."""
    root = parse(client.get(f"/{lang}/{page_name}").text)
    for table in root.find_all("table"):
        assert table.find_all("caption"), "every table has a caption"
        columns = table.find("thead").find_all("th")
        assert all(th.attrs.get("scope") == "col" for th in columns)
        for row in table.find("tbody").find_all("tr"):
            cells = [node for node in row.children if node.tag in ("th", "td")]
            assert cells[0].tag == "th" and cells[0].attrs.get("scope") == "row", row.text
            assert len(cells) == len(columns), row.text
    levels = [int(node.tag[1]) for node in root.iter() if node.tag in {"h1", "h2", "h3", "h4"}]
    assert all(later - earlier <= 1 for earlier, later in zip(levels, levels[1:])), levels
