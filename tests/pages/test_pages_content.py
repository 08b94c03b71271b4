"""Numbers and boards on the pages come from one source: the tile ladder and the engine."""

import pytest
from pages_html import parse
from pages_site import LANGUAGES

import engine
from webapp.pages import board_examples
from webapp.pages.tile_ladder import tile_ladder


def test_ladder_climbs_from_2_to_131072():
    assert [rung.value for rung in tile_ladder()] == [2 ** k for k in range(1, 18)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_shows_every_tile_with_its_points(client, lang):
    table = parse(client.get(f"/{lang}/rules").text).find("table", "ladder-table")
    rows = table.find("tbody").find_all("tr")
    tiles = [int(row.find("span", "tile").attrs["data-value"]) for row in rows]
    points = [int(row.find("td", "number").attrs["data-points"]) for row in rows]
    assert tiles == [2 ** k for k in range(1, 18)]
    assert points == [(k - 1) * 2 ** k for k in range(1, 18)]


@pytest.mark.parametrize("name, example", [*board_examples.RULES.items(), *board_examples.STRATEGY.items()])
def test_every_drawn_move_is_legal_except_the_illegal_one(name, example):
    """The boards after a move are the engine's; each must show the move its caption describes."""
    if example.direction is None:
        return
    rows, points = engine.slide(example.before, example.direction)
    assert (example.after, example.points) == (tuple(map(tuple, rows)), points)
    assert example.changes == (name != "illegal")


def test_drawn_boards_show_the_examples_cells(client):
    page = parse(client.get("/en/rules").text)
    first = page.find("figure", "example").find("table", "example-board")
    drawn = tuple(
        tuple(int(td.text) if td.text else 0 for td in tr.find_all("td"))
        for tr in first.find_all("tr")
    )
    assert drawn == board_examples.RULES["setup"].before
