"""Spawns: 2 with p = 0.9, 4 with p = 0.1, on a uniformly random empty cell; seeded, so fixed."""

import math

from engine import Game, rng

EMPTY = (0, 0, 0, 0)
DRAWS = 40_000


def test_one_spawn_in_ten_is_a_four():
    fours = sum(rng.spawn_choice(seed=12345, counter=n, empty_count=16)[1] == 2 for n in range(DRAWS))
    share = fours / DRAWS
    # binomial standard deviation at p = 0.1 is 0.0015 here; 0.006 is four of them
    assert abs(share - 0.1) < 0.006


def test_spawn_cells_are_uniform_chi_square():
    for empty_count in (16, 7, 3):
        counts = [0] * empty_count
        for n in range(DRAWS):
            counts[rng.spawn_choice(seed=987, counter=n, empty_count=empty_count)[0]] += 1
        expected = DRAWS / empty_count
        chi_square = sum((count - expected) ** 2 / expected for count in counts)
        degrees = empty_count - 1
        # far above the 99.9th percentile of chi-square(df) for df <= 15 (37.7)
        assert chi_square < degrees + 6 * math.sqrt(2 * degrees)


def test_starting_tiles_over_many_games_are_mostly_twos_and_everywhere():
    values, cells = [], set()
    for seed in range(2000):
        for tile in Game.new(seed=seed).tiles:
            values.append(tile.value)
            cells.add((tile.row, tile.col))
    assert abs(values.count(4) / len(values) - 0.1) < 0.02
    assert len(cells) == 16


def test_a_spawn_only_lands_on_an_empty_cell():
    rows = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 2, 4, 8], [16, 0, 0, 4]]
    landed = set()
    for seed in range(300):
        game = Game.from_rows(rows, seed=seed)
        assert game.move("left")  # row 3 becomes 16 4 _ _: only (3, 2) and (3, 3) are empty
        landed |= {(tile.row, tile.col) for tile in game.tiles if tile.is_new}
    assert landed == {(3, 2), (3, 3)}


def test_same_seed_same_spawns():
    assert Game.new(seed=99).rows == Game.new(seed=99).rows
    assert len({Game.new(seed=seed).rows for seed in range(50)}) > 40
