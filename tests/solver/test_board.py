"""The search's 5-bit board slides and scores exactly like the rules engine, up to 131072."""

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.solver.board import (
    LEFT, build_slide_tables, decode, encode, slide, slide_points, slide_table, transpose,
)

exponents = st.integers(min_value=0, max_value=17)
boards = st.lists(st.lists(exponents, min_size=4, max_size=4), min_size=4, max_size=4).filter(
    lambda rows: sum(row.count(17) for row in rows) < 2
)


@cache
def tables():
    return build_slide_tables()


def as_values(exponent_rows):
    return tuple(tuple(1 << e if e else 0 for e in row) for row in exponent_rows)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(boards)
def test_slides_match_the_rules_engine(exponent_rows):
    rows = encode(exponent_rows)
    toward_first, toward_last, points = tables()
    for index, direction in enumerate(engine.DIRECTIONS):
        slid_rows, slid_columns = slide(rows, transpose(rows), index,
                                        slide_table(toward_first, toward_last))
        expected, expected_points = engine.slide(as_values(exponent_rows), direction)
        assert as_values(decode(slid_rows)) == expected
        assert slid_columns == transpose(slid_rows)
        assert slide_points(rows, transpose(rows), index, points) == expected_points


def test_two_65536_tiles_merge_into_131072():
    rows = encode([[16, 16, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    slid_rows, _ = slide(rows, transpose(rows), LEFT, slide_table(*tables()[:2]))
    assert decode(slid_rows)[0] == [17, 0, 0, 0]
