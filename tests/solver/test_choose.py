"""The solver picks the obvious move, and never an illegal one."""

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import solver

TILES = [0] + [1 << exponent for exponent in range(1, 18)]
FULL_NO_MERGE = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def legal(rows):
    return {d for d in engine.DIRECTIONS if engine.slide(rows, d)[0] != tuple(map(tuple, rows))}


@pytest.mark.parametrize("setting", list(solver.SETTINGS))
@pytest.mark.parametrize(
    "rows, only_move",
    [
        ([[0, 0, 0, 0], [2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4]], "up"),
        ([[0, 2, 4, 2], [0, 4, 2, 4], [0, 2, 4, 2], [0, 4, 2, 4]], "left"),
        ([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [0, 0, 0, 0]], "down"),
    ],
)
def test_the_only_legal_move_is_chosen(setting, rows, only_move):
    assert legal(rows) == {only_move}
    assert solver.choose(rows, setting) == only_move


@pytest.mark.parametrize("setting", list(solver.SETTINGS))
@pytest.mark.parametrize(
    "rows, safe_move",
    [  # two legal moves; after the other one, every new tile leaves no legal move
        ([[16, 32, 4, 8], [4, 64, 32, 16], [16, 4, 64, 32], [0, 64, 2, 16]], "down"),
        ([[0, 2, 16, 8], [4, 16, 32, 4], [8, 2, 64, 2], [32, 64, 8, 64]], "left"),
        ([[32, 8, 16, 64], [8, 4, 32, 8], [2, 64, 16, 32], [4, 8, 64, 0]], "right"),
    ],
)
def test_avoids_immediate_game_over(setting, rows, safe_move):
    assert len(legal(rows)) == 2
    assert solver.choose(rows, setting) == safe_move


@pytest.mark.parametrize("setting", list(solver.SETTINGS))
def test_makes_2048_when_the_other_move_would_split_the_pair(setting):
    # Either sideways move merges the two 1024s; up lifts the right one out of the bottom row.
    # (Where the other move keeps the pair side by side, merging a move later is as sound.)
    rows = [[4, 0, 8, 2], [8, 2, 16, 4], [16, 4, 32, 8], [1024, 1024, 2, 16]]
    assert legal(rows) == {"left", "right", "up"}
    assert solver.choose(rows, setting) in {"left", "right"}


def test_no_legal_move_gives_none_and_no_values():
    assert solver.choose(FULL_NO_MERGE) is None
    assert solver.evaluate_moves(FULL_NO_MERGE) == {}


def test_values_cover_exactly_the_legal_moves():
    rows = [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]
    assert set(solver.evaluate_moves(rows)) == legal(rows)


@pytest.mark.parametrize("biggest", [32768, 65536, 131072])
def test_largest_tiles_are_handled(biggest):
    rows = [[biggest, biggest // 2, 4, 2], [2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 0]]
    assert solver.choose(rows) in legal(rows)
    merge = [[biggest // 2, biggest // 2, 4, 2], [2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64]]
    values = solver.evaluate_moves(merge)
    assert set(values) == {"left", "right"} and all(value > 0 for value in values.values())


boards = st.lists(st.lists(st.sampled_from(TILES), min_size=4, max_size=4), min_size=4, max_size=4)


@settings(max_examples=150, deadline=None)
@given(boards.filter(lambda rows: sum(row.count(131072) for row in rows) < 2))
def test_a_hint_is_always_legal(rows):
    choice = solver.choose(rows)
    if legal(rows):
        assert choice in legal(rows)
    else:
        assert choice is None


@pytest.mark.parametrize(
    "rows",
    [
        [[2, 2, 2]] * 4,
        [[2, 2, 2, 2]] * 3,
        [[3, 0, 0, 0]] + [[0] * 4] * 3,
        [[262144, 0, 0, 0]] + [[0] * 4] * 3,
        [[-2, 0, 0, 0]] + [[0] * 4] * 3,
        [[True, 0, 0, 0]] + [[0] * 4] * 3,
        [[2.0, 0, 0, 0]] + [[0] * 4] * 3,
        [[131072, 131072, 0, 0]] + [[0] * 4] * 3,
        "2 2 2 2",
        None,
    ],
)
def test_a_bad_board_is_refused(rows):
    with pytest.raises(ValueError):
        solver.choose(rows)


@pytest.mark.parametrize("setting", ["godlike", None, ["fast"]])
def test_an_unknown_setting_is_refused(setting):
    with pytest.raises(ValueError):
        solver.choose([[2, 0, 0, 0]] + [[0] * 4] * 3, setting=setting)


@pytest.mark.parametrize("module", [solver, solver.api])
def test_the_documented_examples_hold(module):
    assert doctest.testmod(module).failed == 0
