"""The solver page draws its table and chart from the benchmark's JSON file, whatever it holds."""

import json

import pytest

from tests.pages.pages_html import parse
from tests.pages.pages_site import LANGUAGES, STRENGTH_FIXTURE
from webapp.pages.strength_chart import strength_chart
from webapp.pages.strength_report import load_strength_report

FIXTURE = json.loads(STRENGTH_FIXTURE.read_text())


def _solver_page(client, lang="en"):
    response = client.get(f"/{lang}/solver")
    assert response.status_code == 200
    return parse(response.text)


def test_table_shows_the_files_shares_and_scores(client):
    table = _solver_page(client).find("table", "strength-table")
    cells = {(td.attrs["data-setting"], int(td.attrs["data-tile"])): td.text
             for td in table.find_all("td") if "data-tile" in td.attrs}
    for name, setting in FIXTURE["settings"].items():
        for tile, share in setting["reached"].items():
            assert cells[name, int(tile)] == f"{share * 100:g}%"
    assert "61,234" in table.text and "187,654" in table.text  # mean scores, English format
    assert "412.0" in table.text  # 95th percentile of the strong setting


def test_bar_heights_are_proportional_to_the_shares(client):
    bars = _solver_page(client).find("svg", "chart").find_all("rect", "chart-bar")
    shares = {(bar.attrs["data-setting"], bar.attrs["data-tile"]): float(bar.attrs["data-share"])
              for bar in bars}
    assert shares == {(name, tile): share for name, setting in FIXTURE["settings"].items()
                      for tile, share in setting["reached"].items()}
    full = max(float(bar.attrs["height"]) / float(bar.attrs["data-share"])
               for bar in bars if float(bar.attrs["data-share"]))
    baselines = {round(float(bar.attrs["y"]) + float(bar.attrs["height"]), 1) for bar in bars}
    assert len(baselines) == 1, "every bar stands on the same axis"
    for bar in bars:
        assert float(bar.attrs["height"]) == pytest.approx(float(bar.attrs["data-share"]) * full, abs=0.02)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_missing_file_means_no_measurement(app, client, tmp_path, lang):
    app.config["SOLVER_STRENGTH_FILE"] = str(tmp_path / "absent.json")
    page = _solver_page(client, lang)
    assert page.find_all("p", "no-data")
    assert not page.find_all("svg") and not page.find_all("table", "strength-table")


def test_malformed_file_is_treated_as_missing(app, client, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"settings": {"fast": {"games": 3}}}')
    app.config["SOLVER_STRENGTH_FILE"] = str(broken)
    assert _solver_page(client).find_all("p", "no-data")


def test_other_figures_follow_the_file(app, client, tmp_path):
    data = {"settings": {"fast": {**FIXTURE["settings"]["fast"], "max_moves": 500,
                                  "reached": {"2048": 0.375, "4096": 0.0}}}}
    path = tmp_path / "capped.json"
    path.write_text(json.dumps(data))
    app.config["SOLVER_STRENGTH_FILE"] = str(path)
    page = _solver_page(client)
    bars = page.find_all("rect", "chart-bar")
    assert [(bar.attrs["data-tile"], bar.attrs["data-share"]) for bar in bars] == [("2048", "0.375"), ("4096", "0.0")]
    assert "37.5%" in page.find("table", "strength-table").text
    assert "500" in page.find("table", "strength-table").text  # the move cap is reported


def test_chart_geometry_stays_inside_the_plot():
    chart = strength_chart(load_strength_report(STRENGTH_FIXTURE))
    frame = chart.frame
    for bar in chart.bars:
        assert frame.left <= bar.x and bar.x + bar.width <= frame.right
        assert frame.top <= bar.y and bar.y + bar.height == pytest.approx(frame.bottom)
    assert [tick.y for tick in chart.ticks] == sorted((tick.y for tick in chart.ticks), reverse=True)


def test_settings_table_lists_every_solver_setting(client):
    from engine.solver import SETTINGS

    table = _solver_page(client).find("table", "settings-table")
    assert [th.attrs["data-setting"] for th in table.find("thead").find_all("th")[1:]] == list(SETTINGS)
