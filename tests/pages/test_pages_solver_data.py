"""The strength file the app ships (webapp/pages/solver_strength.json, written by the strength bench)
loads, and the solver page shows its figures and how many games the shipped network trained on.
(The other page tests use a fixture file.)"""

import json
from pathlib import Path

import pytest

from engine.solver.weights_file import SHIPPED as SHIPPED_WEIGHTS
from engine.solver.weights_file import training_counters
from tests.pages.pages_html import parse
from tests.pages.pages_site import LANGUAGES
from webapp.i18n import count_in_words
from webapp.pages.strength_report import load_strength_report

SHIPPED_FILE = Path(__file__).resolve().parents[2] / "webapp" / "pages" / "solver_strength.json"
SHIPPED = json.loads(SHIPPED_FILE.read_text(encoding="utf-8"))["settings"]


def test_the_shipped_file_loads_with_every_measured_setting():
    report = load_strength_report(SHIPPED_FILE)
    assert report is not None
    assert [setting.name for setting in report.settings] == list(SHIPPED)
    for setting in report.settings:
        assert setting.games == SHIPPED[setting.name]["games"] > 0


@pytest.fixture
def shipped_app(tmp_path, make_web_app):
    """An app with no strength file configured: it reads the one it ships."""
    return make_web_app(tmp_path / "instance")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_solver_page_shows_the_shipped_measurements(shipped_app, lang):
    page = parse(shipped_app.test_client().get(f"/{lang}/solver").text)
    assert not page.find_all("p", "no-data")
    table = page.find("table", "strength-table")
    cells = {(td.attrs["data-setting"], int(td.attrs["data-tile"])): td.text
             for td in table.find_all("td") if "data-tile" in td.attrs}
    expected = {(name, int(tile)): share for name, setting in SHIPPED.items()
                for tile, share in setting["reached"].items()}
    assert set(cells) == set(expected)
    for key, share in expected.items():
        shown = cells[key].rstrip("%").strip().replace(",", ".")  # Polish: 66,7 %
        assert shown == f"{round(share * 100, 1):g}", key
    bars = page.find("svg", "chart").find_all("rect", "chart-bar")
    assert {(bar.attrs["data-setting"], int(bar.attrs["data-tile"])) for bar in bars} == set(expected)


#: Numbers cut to two digits and written out: what the page's "more than ... games" says.
IN_WORDS = {
    "en": {3_811_892: "3.8 million", 4_099_999: "4 million", 12_345: "12 thousand", 950: "950"},
    "pl": {3_811_892: "3,8 miliona", 4_099_999: "4 miliony", 22_999_999: "22 miliony",
           5_012_345: "5 milionów"},
    "ja": {3_811_892: "380万", 4_099_999: "400万", 12_345: "1.2万"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_counts_are_cut_down_to_two_digits_and_written_in_words(shipped_app, lang):
    with shipped_app.test_request_context(f"/{lang}/solver"):
        assert {number: count_in_words(number) for number in IN_WORDS[lang]} == IN_WORDS[lang]


#: The sentence around the count, in each language.
TRAINED_ON = {"en": "playing more than {} games", "pl": "ponad {} partii", "ja": "{}ゲーム以上"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_solver_page_says_how_many_games_trained_the_shipped_network(shipped_app, lang):
    games = training_counters(SHIPPED_WEIGHTS)["games"]
    with shipped_app.test_request_context(f"/{lang}/solver"):
        words = count_in_words(games)
    text = " ".join(parse(shipped_app.test_client().get(f"/{lang}/solver").text).text.split())
    assert TRAINED_ON[lang].format(words) in text
    assert games > 1_000_000 and words[0] == str(games)[0]


def test_every_figure_on_the_page_was_measured_with_the_shipped_network():
    """A new weights file ships with its own strength runs (docs/training.md, shipping a network):
    a setting measured with the network still says so, by how many games had trained it."""
    games = training_counters(SHIPPED_WEIGHTS)["games"]
    measured = {name: setting.get("network_games") for name, setting in SHIPPED.items()}
    assert measured == dict.fromkeys(SHIPPED, games)
