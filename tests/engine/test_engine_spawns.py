"""Spawns: 2 with p = 0.9, 4 with p = 0.1, on a uniformly random empty cell; seeded, so fixed."""

import math

import pytest

from engine import Game, rng
from tests.engine.reference_2048 import spawn_from_draw, splitmix64

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


# The first outputs of splitmix64 started at 0, as published with the generator (Steele, Lea and
# Flood, 2014; Vigna's splitmix64.c, which seeds the xoshiro generators with them).
PUBLISHED_FROM_SEED_0 = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC)


def test_the_reference_generator_gives_the_published_values():
    draws = splitmix64(0)
    assert tuple(next(draws) for _ in PUBLISHED_FROM_SEED_0) == PUBLISHED_FROM_SEED_0


def test_the_first_spawns_of_seed_0_are_the_published_draws():
    # 0xE220A839 / 2**32 = 0.883: the 15th of 16 cells; 0x6E789E6A: 0.431, the 7th
    assert [rng.spawn_choice(0, counter, 16) for counter in range(4)] == [
        (14, 1), (6, 1), (0, 1), (15, 1)
    ]


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63, 2**64 - 1])
def test_every_spawn_is_the_next_splitmix64_draw(seed):
    draws = splitmix64(seed)
    seen = set()
    for counter in range(300):
        draw = next(draws)
        for empty_count in (1, 2, 7, 16):
            index, value = spawn_from_draw(draw, empty_count)
            assert rng.spawn_choice(seed, counter, empty_count) == (index, value.bit_length() - 1)
            seen.add(value)
    assert seen == {2, 4}  # both a 2 and a 4 were among the checked draws
