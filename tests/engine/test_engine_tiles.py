"""What each move reports about every tile, for animation, and stable tile ids."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import Game, Tile
from tests.engine.reference_2048 import playable_boards

EMPTY = [0, 0, 0, 0]


def by_position(game):
    return {(tile.row, tile.col): tile for tile in game.tiles}


def test_tiles_of_a_position_set_up_have_no_history():
    game = Game.from_rows([[2, 0, 0, 4], EMPTY, EMPTY, [0, 8, 0, 0]], seed=0)
    assert game.tiles == (
        Tile(1, 2, 0, 0),
        Tile(2, 4, 0, 3),
        Tile(3, 8, 3, 1),
    )


def test_a_sliding_tile_keeps_its_id_and_remembers_where_it_was():
    game = Game.from_rows([[0, 0, 0, 2], EMPTY, EMPTY, [0, 0, 0, 4]], seed=1)
    assert game.move("left")
    tiles = by_position(game)
    assert tiles[(0, 0)].id == 1 and tiles[(0, 0)].previous == (0, 3)
    assert tiles[(3, 0)].id == 2 and tiles[(3, 0)].previous == (3, 3)


def test_a_tile_that_does_not_move_stays_where_it_was():
    game = Game.from_rows([[2, 0, 0, 0], [0, 0, 0, 4], EMPTY, EMPTY], seed=1)
    assert game.move("left")
    tile = by_position(game)[(0, 0)]
    assert tile.id == 1 and tile.previous == (0, 0) and not tile.is_new


def test_a_merged_tile_gets_a_new_id_and_names_its_two_parents():
    game = Game.from_rows([[4, 4, 4, 0], EMPTY, EMPTY, EMPTY], seed=1)
    assert game.move("left")
    tiles = by_position(game)
    merged, slid = tiles[(0, 0)], tiles[(0, 1)]
    assert merged.value == 8 and merged.id not in (1, 2, 3) and merged.previous is None
    assert merged.merged_from == (Tile(1, 4, 0, 0, previous=(0, 0)), Tile(2, 4, 0, 0, previous=(0, 1)))
    assert slid == Tile(3, 4, 0, 1, previous=(0, 2))


def test_the_spawned_tile_is_new_with_a_fresh_id():
    game = Game.from_rows([[2, 0, 0, 0], [4, 0, 0, 0], EMPTY, EMPTY], seed=1)
    assert game.move("right")
    new = [tile for tile in game.tiles if tile.is_new]
    assert len(new) == 1
    assert new[0].id == 3 and new[0].previous is None and new[0].merged_from is None


def test_ids_survive_save_and_restore_and_keep_counting():
    game = Game.new(seed=4)
    for direction in ("left", "up", "right", "down") * 5:
        game.move(direction)
    restored = Game.from_saved(game.to_saved())
    assert {(t.id, t.row, t.col) for t in restored.tiles} == {(t.id, t.row, t.col) for t in game.tiles}
    assert all(t.previous is None and not t.is_new and t.merged_from is None for t in restored.tiles)
    direction = restored.legal_moves()[0]
    game.move(direction)
    restored.move(direction)
    assert [(t.id, t.previous) for t in restored.tiles] == [(t.id, t.previous) for t in game.tiles]


def test_refused_move_leaves_the_tiles_as_they_were():
    game = Game.from_rows([[1024, 1024, 0, 0], EMPTY, EMPTY, [0, 0, 0, 2]], seed=1)
    assert game.move("left")  # wins: further moves are refused until keep_playing
    tiles = game.tiles
    assert game.move("right") is False
    assert game.tiles == tiles


# Examples are never timed (deadline=None): speed lives in bench/, and a shared machine
# would make a deadline fail at random.
@settings(deadline=None)
@given(playable_boards, st.sampled_from(engine.DIRECTIONS), st.integers(0, 1000))
def test_every_move_accounts_for_every_tile(rows, direction, seed):
    game = Game.from_rows(rows, seed=seed)
    before = {(t.row, t.col): t for t in game.tiles}
    slid, _ = engine.slide(rows, direction)
    if not game.move(direction):
        return
    used, new = [], []
    for tile in game.tiles:
        if tile.is_new:
            # the spawn: on a cell the slide left empty, with no past
            assert slid[tile.row][tile.col] == 0 and tile.value in (2, 4)
            assert tile.previous is None and tile.merged_from is None
            new.append(tile)
        elif tile.merged_from:
            for parent in tile.merged_from:
                origin = before[parent.previous]
                assert (parent.id, parent.value) == (origin.id, origin.value)
                assert tile.value == 2 * parent.value
                assert (parent.row, parent.col) == (tile.row, tile.col)
                used.append(parent.previous)
        else:
            origin = before[tile.previous]
            assert (tile.id, tile.value) == (origin.id, origin.value)
            used.append(tile.previous)
    # every tile before the move is accounted for exactly once: nothing merges twice
    assert sorted(used) == sorted(before)
    assert len(new) == 1
    ids = [tile.id for tile in game.tiles]
    assert len(set(ids)) == len(ids)


def test_ids_stay_distinct_over_a_long_game():
    game = Game.new(seed=77)
    generator = random.Random(77)
    while game.legal_moves() or game.awaiting_choice:
        if game.awaiting_choice:
            game.keep_playing()
        game.move(generator.choice(game.legal_moves()))
        ids = [tile.id for tile in game.tiles]
        assert len(set(ids)) == len(ids)
    assert game.over
