"""The points a tile stands for, as the rules' score section states them."""

import doctest

import pytest

from engine import Game, scoring
from engine.scoring import TILE_VALUES, merge_points


def test_the_examples_in_the_module_docstring_hold():
    assert doctest.testmod(scoring).failed == 0


def test_a_2048_built_from_2s_stands_for_20480_points():
    assert [merge_points(2 ** k) for k in (1, 2, 3, 11)] == [0, 4, 16, 20480]


@pytest.mark.parametrize("value", [0, 1, 6, 3 * 1024, 2 ** 18, -2])
def test_only_tile_values_have_merge_points(value):
    with pytest.raises(ValueError):
        merge_points(value)


def test_tile_values_run_from_2_to_131072():
    assert TILE_VALUES == tuple(2 ** k for k in range(1, 18))


def test_merging_two_tiles_built_from_2s_scores_their_merge_points_and_the_new_tile():
    half = 1024
    game = Game.from_rows([[half, half, 0, 0], [0] * 4, [0] * 4, [0] * 4], score=0, seed=3)
    game.move("left")
    assert 2 * merge_points(half) + game.score == merge_points(2 * half)
