"""Bad input is refused with the documented exception, and changes nothing."""

import doctest

import pytest

import engine
from engine import Game, slide

GOOD_ROWS = [[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]


def test_the_examples_in_the_package_docstring_hold():
    assert doctest.testmod(engine).failed == 0


@pytest.mark.parametrize(
    ("direction", "error"),
    [(bad, ValueError) for bad in ["", "Left", "north", "left ", "UP"]]
    + [(bad, TypeError) for bad in [None, 0, 1.5, b"left", ["left"], ("up",)]],
)
def test_bad_direction_raises_and_changes_nothing(direction, error):
    """An unknown string is a ValueError, anything not a string a TypeError."""
    game = Game.new(seed=1)
    before = game.position
    with pytest.raises(error):
        game.move(direction)
    with pytest.raises(error):
        slide(GOOD_ROWS, direction)
    assert game.position == before


def test_bad_direction_is_refused_even_while_awaiting_choice():
    game = Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=1)
    game.move("left")
    with pytest.raises(ValueError):
        game.move("sideways")


BAD_ROWS = {
    "three rows": [[2, 2, 0, 0]] * 3,
    "five columns": [[2, 2, 0, 0, 0]] + [[0] * 4] * 3,
    "string": "2200" * 4,
    "rows of strings": ["2200"] * 4,
    "not a power of two": [[3, 2, 0, 0]] + [[0] * 4] * 3,
    "one": [[1, 2, 0, 0]] + [[0] * 4] * 3,
    "negative": [[-2, 2, 0, 0]] + [[0] * 4] * 3,
    "too large": [[262144, 2, 0, 0]] + [[0] * 4] * 3,
    "float": [[2.0, 2, 0, 0]] + [[0] * 4] * 3,
    "bool": [[True, 2, 0, 0]] + [[0] * 4] * 3,
    "none cell": [[None, 2, 0, 0]] + [[0] * 4] * 3,
    "two 131072": [[131072, 131072, 0, 0]] + [[0] * 4] * 3,
    "dict": {0: [2, 2, 0, 0], 1: [0] * 4, 2: [0] * 4, 3: [0] * 4},
    "none": None,
}


@pytest.mark.parametrize("name", BAD_ROWS)
def test_malformed_rows_are_refused(name):
    with pytest.raises(ValueError):
        slide(BAD_ROWS[name], "left")
    with pytest.raises(ValueError):
        Game.from_rows(BAD_ROWS[name])


@pytest.mark.parametrize("rows", [[[0] * 4] * 4, [[2, 0, 0, 0]] + [[0] * 4] * 3])
def test_a_game_needs_two_tiles_but_slide_takes_any_board(rows):
    with pytest.raises(ValueError):
        Game.from_rows(rows)
    assert slide(rows, "right")[1] == 0


@pytest.mark.parametrize("score", [-2, 3, 2.0, "0", True, None])
def test_from_rows_refuses_a_bad_score(score):
    with pytest.raises(ValueError):
        Game.from_rows(GOOD_ROWS, score=score, seed=0)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.0, "7", True])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(ValueError):
        Game.new(seed=seed)
    with pytest.raises(ValueError):
        Game.from_rows(GOOD_ROWS, seed=seed)


def test_from_rows_accepts_tuples_and_keeps_the_score():
    game = Game.from_rows(tuple(map(tuple, GOOD_ROWS)), score=40, seed=0)
    assert game.rows == tuple(map(tuple, GOOD_ROWS)) and game.score == 40 and game.seed == 0


def test_from_rows_with_a_big_tile_is_already_won_without_a_banner():
    game = Game.from_rows([[4096, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=0)
    assert game.won and not game.awaiting_choice


def test_a_game_reaches_131072():
    rows = [[65536, 65536, 0, 0], [32768, 0, 0, 0], [0] * 4, [0] * 4]
    game = Game.from_rows(rows, seed=4)
    assert game.move("left")
    assert game.rows[0][0] == 131072 and game.score == 131072
    assert Game.from_saved(game.to_saved()).rows == game.rows
