"""Language selection and the gettext catalogs."""

from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask import render_template_string
from flask_babel import force_locale

TRANSLATIONS = Path(__file__).resolve().parents[2] / "translations"


def test_accept_language_picks_the_language(client):
    page = client.get("/", headers={"Accept-Language": "ja,en;q=0.5"})
    assert '<html lang="ja">' in page.text
    assert "新しいゲーム" in page.text


@pytest.mark.parametrize("header, lang", [
    ("de, pl;q=0.8, ja;q=0.9", "ja"),  # the highest quality we speak, not the first listed
    ("pl-PL, en;q=0.1", "pl"),  # a regional tag falls back to its language
    ("de, fr", "en"),  # none of ours: English
    ("ja;q=0, de", "en"),  # rated 0: refused
    ("", "en"),
])
def test_accept_language_is_read_by_quality_on_every_request(client, header, lang):
    for _ in range(2):  # the second answer comes from the remembered reading of the header
        page = client.get("/", headers={"Accept-Language": header})
        assert f'<html lang="{lang}">' in page.text


def test_remembered_choice_beats_accept_language(client):
    answer = client.get("/language/pl")
    assert answer.status_code == 302
    page = client.get("/", headers={"Accept-Language": "ja"})
    assert '<html lang="pl">' in page.text
    assert "Nowa gra" in page.text


def test_unknown_language_is_not_remembered(client):
    client.get("/language/xx")
    assert client.get_cookie("lang") is None
    assert '<html lang="en">' in client.get("/").text


def test_page_links_to_the_content_pages_in_its_language(client):
    client.set_cookie("lang", "ja")
    page = client.get("/").text
    for name in ("rules", "strategy", "solver"):
        assert f'href="/ja/{name}"' in page


def test_templates_follow_a_locale_forced_within_the_request(app):
    # The templates' catalog is found once per request: a forced locale must get its own, and
    # the request's language must come back after it.
    with app.test_request_context("/en/"):
        assert render_template_string("{{ _('Score') }}") == "Score"
        with force_locale("pl"):
            assert render_template_string("{{ _('Score') }}") == "Wynik"
        assert render_template_string("{{ _('Score') }}") == "Score"


@pytest.mark.parametrize("path, forced, expected", [("/en/", "ja", "上"), ("/ja/", "pl", "w górę")])
def test_a_string_made_at_import_speaks_the_language_in_force_when_shown(app, path, forced,
                                                                        expected):
    from webapp.game.controls import SHOWN_DIRECTIONS

    name = SHOWN_DIRECTIONS["up"].name  # made once, when the module was imported
    with app.test_request_context(path):
        shown = str(name)
        with force_locale(forced):
            assert str(name) == expected
        assert str(name) == shown != expected


def frozen(text: str | list | tuple) -> str | tuple:
    """A message id or string (plural forms come as lists from .mo files) as a dict key."""
    return text if isinstance(text, str) else tuple(text)


@pytest.mark.parametrize("lang", ["pl", "ja"])
def test_compiled_catalog_matches_its_source(lang):
    folder = TRANSLATIONS / lang / "LC_MESSAGES"
    with open(folder / "messages.po", "rb") as po_file:
        source = read_po(po_file)
    with open(folder / "messages.mo", "rb") as mo_file:
        compiled = read_mo(mo_file)
    wanted = {frozen(m.id): frozen(m.string) for m in source if m.id and m.string and not m.fuzzy}
    have = {frozen(m.id): frozen(m.string) for m in compiled if m.id}
    assert have == wanted, f"run: pybabel compile -d translations (catalog {lang} is stale)"


@pytest.mark.parametrize("lang", ["pl", "ja"])
def test_every_interface_string_is_translated(lang):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as po_file:
        catalog = read_po(po_file)
    missing = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
    assert not missing
