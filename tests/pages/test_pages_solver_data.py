"""The strength file the app ships (webapp/pages/solver_strength.json, written by the strength bench)
loads, and the solver page shows its figures. (The other page tests use a fixture file.)"""

import json
from pathlib import Path

import pytest
from pages_html import parse
from pages_site import LANGUAGES

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
