"""The packed-board engine against the tile-by-tile reference on many random boards."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import slide
from tests.engine.reference_2048 import ALL_VALUES, boards, reference_slide


# Examples are never timed (deadline=None): speed lives in bench/, and a shared machine
# would make a deadline fail at random.
@settings(max_examples=400, deadline=None)
@given(boards, st.sampled_from(engine.DIRECTIONS))
def test_engine_matches_the_reference(rows, direction):
    assert slide(rows, direction) == reference_slide(rows, direction)


@pytest.mark.parametrize("direction", engine.DIRECTIONS)
def test_engine_matches_the_reference_on_seeded_random_boards(direction):
    generator = random.Random(2048)
    for _ in range(3000):
        cells = [generator.choice(ALL_VALUES[: generator.randint(2, 17)]) for _ in range(16)]
        if cells.count(131072) > 1:
            continue
        rows = [cells[4 * row : 4 * row + 4] for row in range(4)]
        assert slide(rows, direction) == reference_slide(rows, direction)


@pytest.mark.parametrize(
    "rows",
    [
        [[65536, 65536, 32768, 32768], [131072, 0, 0, 0], [0] * 4, [0] * 4],
        [[131072, 65536, 65536, 0], [65536, 2, 2, 65536], [0, 0, 0, 32768], [32768, 0, 0, 0]],
        [[0, 131072, 0, 65536], [0, 0, 0, 65536], [4, 0, 0, 32768], [4, 2, 2, 32768]],
    ],
)
@pytest.mark.parametrize("direction", engine.DIRECTIONS)
def test_engine_is_exact_with_the_largest_tiles(rows, direction):
    assert slide(rows, direction) == reference_slide(rows, direction)
