"""Properties of a move that hold on every board, checked on random boards."""

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import Game, slide
from tests.engine.reference_2048 import (
    boards, full_boards, mirror_left_right, neighbours_equal, playable_boards, reference_slide,
    rotate_clockwise, stuck_boards,
)

directions = st.sampled_from(engine.DIRECTIONS)
# Rotating the board a quarter turn clockwise turns each direction into the next one here.
CLOCKWISE = {"up": "right", "right": "down", "down": "left", "left": "up"}


def tile_sum(rows):
    return sum(map(sum, rows))


# Examples are never timed (deadline=None): speed lives in bench/, and a shared machine
# would make a deadline fail at random.
@settings(deadline=None)
@given(boards, directions)
def test_a_slide_keeps_the_sum_of_the_tiles(rows, direction):
    assert tile_sum(slide(rows, direction)[0]) == tile_sum(rows)


@settings(deadline=None)
@given(playable_boards, directions)
def test_points_are_the_sum_of_the_merged_tiles(rows, direction):
    game = Game.from_rows(rows, seed=0)
    _, points = slide(rows, direction)
    if game.move(direction):
        assert points == game.last_points == sum(t.value for t in game.tiles if t.merged_from)
    else:
        assert points == 0


@settings(deadline=None)
@given(boards, directions)
def test_rotating_the_board_rotates_the_move(rows, direction):
    after, points = slide(rows, direction)
    assert slide(rotate_clockwise(rows), CLOCKWISE[direction]) == (rotate_clockwise(after), points)


@settings(deadline=None)
@given(boards)
def test_left_and_right_mirror_each_other(rows):
    after, points = slide(rows, "left")
    assert slide(mirror_left_right(rows), "right") == (mirror_left_right(after), points)


@settings(deadline=None)
@given(playable_boards, directions)
def test_a_move_is_legal_exactly_when_it_changes_the_board(rows, direction):
    game = Game.from_rows(rows, seed=0)
    changes = slide(rows, direction)[0] != tuple(map(tuple, rows))
    assert (direction in game.legal_moves()) == changes
    assert game.move(direction) == changes


@settings(deadline=None)
@given(st.one_of(playable_boards, full_boards, stuck_boards))
def test_game_over_exactly_when_no_move_is_legal(rows):
    game = Game.from_rows(rows, seed=0)
    full = all(value for row in rows for value in row)
    stuck = all(reference_slide(rows, direction)[0] == rows for direction in engine.DIRECTIONS)
    assert game.over == stuck == (full and not neighbours_equal(rows))
    assert (game.status == engine.Status.OVER) == stuck


@settings(deadline=None)
@given(boards, directions)
def test_no_tile_merges_twice_in_one_move(rows, direction):
    # A line of four equal tiles ends as two tiles of double value, never one of four times.
    after, _ = slide(rows, direction)
    assert max(map(max, after)) <= 2 * max(map(max, rows))
    assert after == reference_slide(rows, direction)[0]


@settings(max_examples=150, deadline=None)
@given(playable_boards, directions, st.integers(0, 2**64 - 1))
def test_a_legal_move_adds_one_two_or_four_on_a_cell_that_was_empty(rows, direction, seed):
    game = Game.from_rows(rows, seed=seed)
    slid, points = slide(rows, direction)
    if not game.move(direction):
        return
    new = [
        (r, c, game.rows[r][c])
        for r in range(4)
        for c in range(4)
        if game.rows[r][c] != slid[r][c]
    ]
    assert len(new) == 1
    r, c, value = new[0]
    assert slid[r][c] == 0 and value in (2, 4)
    assert game.score == points
