"""Each example of the rules (RULES.md and the Polish and Japanese sources) as its own test."""

import pytest

import engine
from engine import Game, slide

EMPTY = (0, 0, 0, 0)


def row_left(*values):
    """The first row after pushing a board holding just that row to the left, and the points."""
    rows, points = slide([list(values), EMPTY, EMPTY, EMPTY], "left")
    return rows[0], points


def test_four_equal_tiles_make_two_never_one():
    # "4 4 4 4 pushed left becomes 8 8, never 16" (rule 1, one merge per tile per move)
    assert row_left(4, 4, 4, 4) == ((8, 8, 0, 0), 16)


def test_merging_starts_from_the_edge_pushed_toward():
    # "4 4 4 pushed left becomes 8 4 (not 4 8)" (rule 2)
    assert row_left(4, 4, 4, 0) == ((8, 4, 0, 0), 8)


def test_merging_starts_from_the_right_edge_when_pushing_right():
    rows, _ = slide([[0, 4, 4, 4], EMPTY, EMPTY, EMPTY], "right")
    assert rows[0] == (0, 0, 4, 8)


def test_neighbours_across_the_move_direction_do_not_merge():
    # Rule 3: two equal tiles side by side, pushed up, neither moves toward the other.
    rows, points = slide([[2, 2, 0, 0], EMPTY, EMPTY, EMPTY], "up")
    assert rows == ((2, 2, 0, 0), EMPTY, EMPTY, EMPTY) and points == 0


def test_equal_tiles_one_above_the_other_pushed_sideways_do_not_merge():
    rows, points = slide([[2, 0, 0, 0], [2, 0, 0, 0], EMPTY, EMPTY], "right")
    assert rows == ((0, 0, 0, 2), (0, 0, 0, 2), EMPTY, EMPTY) and points == 0


def test_tiles_meeting_across_a_gap_merge():
    assert row_left(2, 0, 0, 2) == ((4, 0, 0, 0), 4)


def test_two_twos_make_a_four():
    # "2+2 -> 4" ("Dwie 2 stają się 4")
    assert row_left(2, 2, 0, 0) == ((4, 0, 0, 0), 4)


def test_two_512s_make_1024():
    # "512+512 -> 1024" ("dwie 512 stają się 1024", "512どうしなら1024")
    assert row_left(512, 512, 0, 0) == ((1024, 0, 0, 0), 1024)


def test_merging_two_256s_scores_512():
    # "two 256s -> +512" ("połączenie dwóch 256 dodaje 512 punktów", "256どうしの合体で512点")
    game = Game.from_rows([[256, 256, 0, 0], EMPTY, EMPTY, EMPTY], seed=1)
    assert game.move("left")
    assert game.score == 512 and game.last_points == 512


def test_sliding_without_merging_scores_nothing_however_far():
    game = Game.from_rows([[0, 0, 0, 2], [0, 0, 0, 4], [0, 0, 0, 8], [0, 0, 0, 16]], seed=1)
    assert game.move("left")
    assert game.score == 0 and game.last_points == 0


def test_score_starts_at_zero():
    assert Game.new(seed=3).score == 0 and Game.new(seed=3).last_points == 0


def test_illegal_move_changes_nothing_and_spawns_nothing():
    # All tiles already pushed left: "nic się nie dzieje" / "何も起こりません".
    game = Game.from_rows([[2, 4, 0, 0], [8, 0, 0, 0], EMPTY, EMPTY], score=12, seed=5)
    before = game.position
    assert "left" not in game.legal_moves()
    assert game.move("left") is False
    assert game.position == before


def test_a_legal_move_adds_exactly_one_tile():
    game = Game.from_rows([[2, 4, 0, 0], [8, 0, 0, 0], EMPTY, EMPTY], seed=5)
    assert game.move("right")
    assert sum(1 for row in game.rows for value in row if value) == 4
    assert game.moves == 1


def test_full_board_with_an_equal_pair_is_not_over():
    rows = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]]
    game = Game.from_rows(rows, seed=0)
    assert not game.over
    assert game.legal_moves() == ("left", "right")


def test_full_board_without_pairs_is_over():
    rows = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    game = Game.from_rows(rows, seed=0)
    assert game.over
    assert game.legal_moves() == ()
    assert all(game.move(direction) is False for direction in engine.DIRECTIONS)


def test_board_with_an_empty_cell_is_not_over():
    game = Game.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 0]], seed=0)
    assert not game.over


def test_new_game_has_two_starting_tiles_on_distinct_cells():
    for seed in range(200):
        game = Game.new(seed=seed)
        tiles = game.tiles
        assert len(tiles) == 2
        assert len({(tile.row, tile.col) for tile in tiles}) == 2
        assert all(tile.value in (2, 4) and tile.is_new for tile in tiles)
        assert game.moves == 0 and not game.won and not game.over


def near_win():
    return Game.from_rows([[1024, 1024, 0, 0], EMPTY, EMPTY, [2, 0, 0, 0]], seed=11)


def test_the_first_2048_wins_and_awaits_the_players_choice():
    game = near_win()
    assert not game.won
    assert game.move("left")
    assert game.won and game.awaiting_choice
    assert game.rows[0][0] == 2048


def test_moves_are_refused_while_the_win_awaits_a_choice():
    game = near_win()
    game.move("left")
    before = game.position
    assert game.legal_moves() == ()
    assert all(game.move(direction) is False for direction in engine.DIRECTIONS)
    assert game.position == before


def test_keep_playing_returns_to_the_same_board():
    game = near_win()
    game.move("left")
    rows = game.rows
    game.keep_playing()
    assert game.rows == rows and game.won and not game.awaiting_choice
    assert game.legal_moves()
    assert game.move(game.legal_moves()[0])


def test_the_win_is_announced_once_per_game():
    game = Game.from_rows([[1024, 1024, 1024, 1024], EMPTY, EMPTY, EMPTY], seed=2)
    assert game.move("left")  # two 2048s at once: one win
    game.keep_playing()
    assert game.move("left")  # 2048 + 2048 = 4096
    assert game.rows[0][0] == 4096
    assert game.won and not game.awaiting_choice


def test_a_later_2048_does_not_ask_again():
    game = Game.from_rows([[2048, 0, 0, 0], [1024, 1024, 0, 0], EMPTY, EMPTY], seed=2)
    assert game.won and not game.awaiting_choice
    assert game.move("right")
    assert not game.awaiting_choice


@pytest.mark.parametrize("seed", range(8))
def test_a_win_that_fills_the_board_asks_first_then_ends(seed):
    # The winning merge leaves one empty cell, the spawn fills it and no neighbours are equal:
    # the win is offered first, and only "keep playing" reveals that no move is left.
    rows = [[1024, 1024, 8, 16], [4, 32, 64, 128], [8, 64, 128, 256], [4, 8, 16, 32]]
    game = Game.from_rows(rows, seed=seed)
    assert game.move("left")
    assert 0 not in sum(game.rows, ())
    assert game.status == engine.Status.WON
    game.keep_playing()
    assert game.status == engine.Status.OVER and game.legal_moves() == ()


def test_status_is_playing_while_a_move_is_left():
    game = near_win()
    assert game.status == "playing"


def test_tiles_go_beyond_2048_up_to_131072():
    rows, points = slide([[65536, 65536, 0, 0], EMPTY, EMPTY, EMPTY], "left")
    assert rows[0][0] == 131072 and points == 131072


@pytest.mark.parametrize(
    "direction, expected",
    [
        ("up", ((4, 8, 4, 0), (0, 0, 2, 0), (0, 0, 4, 0), EMPTY)),
        ("down", (EMPTY, (0, 0, 4, 0), (0, 0, 2, 0), (4, 8, 4, 0))),
        ("left", ((2, 8, 0, 0), (4, 0, 0, 0), (8, 0, 0, 0), EMPTY)),
        ("right", ((0, 0, 2, 8), (0, 0, 0, 4), (0, 0, 0, 8), EMPTY)),
    ],
)
def test_each_direction_moves_every_tile_that_way(direction, expected):
    rows = [[2, 4, 4, 0], [2, 0, 2, 0], [0, 4, 4, 0], EMPTY]
    assert slide(rows, direction)[0] == expected
