"""Numbers and boards on the pages come from one source: the tile ladder and the engine."""

import pytest

from tests.pages.pages_html import parse
from tests.pages.pages_site import LANGUAGES
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


_ = 0  # an empty cell
#: Each drawn move as worked out by hand: (board after the move, before the new tile; points).
#: "illegal" changes nothing; the examples without a direction are positions only.
AFTER_THE_MOVE = {
    "move": (((4, _, _, _), (4, _, _, _), (8, _, _, _), (4, 16, _, _)), 4),
    "illegal": (((2, 8, _, _), (4, _, _, _), (16, 2, 4, _), (_, _, _, _)), 0),
    "merge": (((4, _, _, _), (1024, _, _, _), (_, _, _, _), (_, _, _, _)), 1028),
    "once": (((8, 8, _, _), (_, _, _, _), (_, _, _, _), (_, _, _, _)), 16),
    "edge": (((8, 4, _, _), (_, _, _, _), (_, _, _, _), (_, _, _, _)), 8),
    "meet": (((_, _, 2, 8), (_, _, 2, 4), (_, _, _, _), (_, _, _, _)), 0),
    "score": (((512, _, _, _), (_, _, _, _), (16, _, _, _), (_, _, _, _)), 528),
    "win": (((2048, 8, 2, _), (64, 16, 4, _), (8, 2, _, _), (_, _, _, _)), 2048),
    "full_not_lost": (((2, 8, 16, 4), (4, 32, 64, 2), (8, 128, 256, 8), (_, 2, 16, 8)), 8),
    "collapse": (((512, 256, 128, 128), (4, 8, 16, _), (2, _, _, _), (_, _, _, _)), 128),
    "full_row": (((256, 64, 32, 16), (_, 4, 8, 2), (_, _, _, 2), (_, _, _, _)), 0),
    "two_directions": (((256, 64, 16, 4), (32, 8, 2, 2), (4, 4, _, _), (_, _, _, _)), 0),
    "skip_merge": (((256, 64, 16, 2), (2, 16, _, _), (_, _, _, _), (_, _, _, _)), 16),
    "mistake_directions": (((_, 256, 32, 8), (_, _, 16, 4), (_, _, _, 2), (_, _, _, _)), 0),
    "mistake_hurry": (((1024, 256, _, _), (128, 32, 64, _), (8, 4, 16, 8), (2, 8, 2, 8)), 8),
}
EXAMPLES = {**board_examples.RULES, **board_examples.STRATEGY}
POSITIONS = {name for name, example in EXAMPLES.items() if example.direction is None}


def test_every_example_is_a_move_worked_out_here_or_a_position():
    assert set(AFTER_THE_MOVE) == set(EXAMPLES) - POSITIONS
    assert POSITIONS == {"setup", "lost", "corner", "snake", "mistake_trapped"}


@pytest.mark.parametrize("name", AFTER_THE_MOVE)
def test_every_drawn_move_shows_the_right_board_and_points(name):
    example = EXAMPLES[name]
    assert (example.after, example.points) == AFTER_THE_MOVE[name]
    assert example.changes == (name != "illegal")


def drawn_boards(figure) -> list[tuple[tuple[int, ...], ...]]:
    """Each board in the figure, its 16 cells read in order, as 4 rows."""
    boards = []
    for board in figure.find_all(None, "example-board"):
        values = [int(cell.text) if cell.text else 0 for cell in board.find_all(None, "example-cell")]
        boards.append(tuple(tuple(values[row * 4:row * 4 + 4]) for row in range(4)))
    return boards


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_draw_each_example_before_and_after_its_move(client, lang):
    figures = [figure for page in ("rules", "strategy")
               for figure in parse(client.get(f"/{lang}/{page}").text).find_all("figure", "example")]
    drawn = sorted(tuple(drawn_boards(figure)) for figure in figures)
    expected = sorted((example.before, AFTER_THE_MOVE[name][0]) if name in AFTER_THE_MOVE
                      else (example.before,) for name, example in EXAMPLES.items())
    assert drawn == expected


def test_drawn_boards_are_labelled_pictures_of_the_examples_cells(client):
    first = parse(client.get("/en/rules").text).find("figure", "example")
    assert drawn_boards(first) == [board_examples.RULES["setup"].before]
    board = first.find("div", "example-board")
    assert board.attrs["role"] == "img"
    assert board.attrs["aria-label"].startswith("Example position. Row 1: ")


NO_SETUP = {"en": "no shuffling, no dealing, no choosing a starting position",
            "pl": "żadnego tasowania, rozdawania ani wybierania pozycji startowej",
            "ja": "札を切ったり配ったりすることも、開始位置を選ぶこともありません"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_credits_the_author_and_says_what_setup_is_not(client, lang):
    page = parse(client.get(f"/{lang}/rules").text)
    assert "Gabriele Cirulli" in page.find("p", "lead").text
    setup = next(section for section in page.find_all("section") if section.attrs.get("id") == "setup")
    assert NO_SETUP[lang] in setup.text
