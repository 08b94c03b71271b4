"""The n-tuple network: symmetric, staged (late stages may read more shapes), defined for every
tile up to 131072, served from float32 or int16 weights alike."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.solver.board import encode
from engine.solver.ntuple import (
    LATE_SHAPES, READ_DOWN_TOP, SHAPES, STAGES, Network, empty_network, network_value,
    placements,
)

BOARD = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 0]]  # exponents


def symmetric_images(exponents):
    """The board, its rotations and its reflections (8 boards)."""
    grid = np.array(exponents)
    images = []
    for turned in (grid, grid.T):
        for flipped in (turned, turned[::-1]):
            images += [flipped, flipped[:, ::-1]]
    return [image.tolist() for image in images]


@pytest.fixture(scope="module")
def random_network() -> Network:
    network = empty_network()
    np.random.default_rng(7).standard_normal(dtype=np.float32, out=network.weights)
    return network


def value(network: Network, exponents) -> float:
    return network_value(encode(tuple(map(tuple, exponents))), network.weights,
                         network.placements, network.late_top)


def slow_value(network: Network, exponents) -> float:
    """The definition, cell by cell: each shape read on each image of the board, in the
    stage the board's largest tile picks (for boards within 32768)."""
    stage = 1 if max(map(max, exponents)) >= 14 else 0
    total = 0.0
    for image in symmetric_images(exponents):
        cells = [exponent for row in image for exponent in row]
        for number, shape in enumerate(SHAPES):
            index = sum(cells[cell] << (4 * digit) for digit, cell in enumerate(shape))
            total += float(network.weights[stage, number, index])
    return total


exponent_boards = st.lists(st.lists(st.integers(0, 17), min_size=4, max_size=4),
                           min_size=4, max_size=4)
small_boards = st.lists(st.lists(st.integers(0, 15), min_size=4, max_size=4),
                        min_size=4, max_size=4)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(small_boards)
def test_the_value_is_the_sum_of_the_weights_every_shape_picks(random_network, exponents):
    assert value(random_network, exponents) == pytest.approx(slow_value(random_network, exponents),
                                                             rel=1e-9, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(exponent_boards)
def test_a_board_and_its_seven_images_score_the_same(random_network, exponents):
    first, *others = (value(random_network, image) for image in symmetric_images(exponents))
    assert all(other == pytest.approx(first, rel=1e-6) for other in others)


def test_boards_holding_16384_are_valued_by_the_second_stage():
    network = empty_network()
    network.weights[1] = 1.0
    before = [[13, 12, 11, 10], [1, 2, 3, 0], [0] * 4, [0] * 4]
    assert value(network, before) == 0.0
    assert value(network, [[14, 12, 11, 10], *before[1:]]) == 8 * len(SHAPES)


def test_a_third_stage_values_the_boards_holding_16384_and_8192():
    network = empty_network(stages=3)
    network.weights[1], network.weights[2] = 1.0, 2.0
    first_chain = [[14, 12, 11, 10], [1, 2, 3, 0], [0] * 4, [0] * 4]
    assert value(network, first_chain) == 8 * len(SHAPES)
    assert value(network, [[14, 13, 11, 10], *first_chain[1:]]) == 2 * 8 * len(SHAPES)
    assert value(network, [[15, 13, 11, 10], *first_chain[1:]]) == 2 * 8 * len(SHAPES)


@pytest.fixture(scope="module")
def promoted_network(random_network) -> Network:
    """Late stages read down to 8192, each a copy of the first stage (as promoted)."""
    weights = np.stack([random_network.weights[0]] * 3)
    return Network(random_network.shapes, weights, READ_DOWN_TOP)


@pytest.mark.parametrize("late, as_first", [
    # 16384 with no 8192: it reads as 8192
    ([[14, 12, 11, 10], [1, 2, 3, 0], [0] * 4, [0] * 4],
     [[13, 12, 11, 10], [1, 2, 3, 0], [0] * 4, [0] * 4]),
    # 16384, 8192, 4096, 1024: the tiles above the missing 2048 read one step smaller
    ([[14, 13, 12, 10], [1, 2, 3, 0], [0] * 4, [0] * 4],
     [[13, 12, 11, 10], [1, 2, 3, 0], [0] * 4, [0] * 4]),
    # 32768 with no 16384 and no 8192: both missing values close up
    ([[15, 12, 11, 10], [1, 2, 3, 0], [0] * 4, [0] * 4],
     [[13, 12, 11, 10], [1, 2, 3, 0], [0] * 4, [0] * 4]),
    # 2 and 4 missing: one step down closes the highest gap (the 4's), and is enough
    ([[14, 13, 12, 11], [10, 9, 8, 7], [6, 5, 4, 3], [0, 0, 0, 0]],
     [[13, 12, 11, 10], [9, 8, 7, 6], [5, 4, 3, 2], [0, 0, 0, 0]]),
])
def test_late_boards_read_down_are_valued_as_their_first_stage_boards(promoted_network,
                                                                      late, as_first):
    assert value(promoted_network, late) == value(promoted_network, as_first)


def test_a_late_board_with_no_value_missing_is_read_as_it_is(promoted_network, random_network):
    full = [[14, 13, 12, 11], [10, 9, 8, 7], [6, 5, 4, 3], [2, 1, 1, 2]]
    assert value(promoted_network, full) == value(Network(random_network.shapes,
                                                          promoted_network.weights[:1]), full)


def test_tiles_above_32768_are_read_smaller_where_a_value_is_missing(random_network):
    with_65536 = [[16, 14, 13, 12], [1, 2, 3, 0], [0] * 4, [0] * 4]  # no 32768 on the board
    with_32768 = [[15, 14, 13, 12], [1, 2, 3, 0], [0] * 4, [0] * 4]
    assert value(random_network, with_65536) == value(random_network, with_32768)
    no_gap = [[16, 15, 14, 13], [12, 11, 10, 9], [8, 7, 6, 5], [4, 3, 2, 1]]
    # nothing to close up, so 65536 and 32768 both read as 32768
    assert value(random_network, no_gap) == value(random_network,
                                                  [[15, 15, 14, 13], *no_gap[1:]])


def test_every_board_up_to_131072_has_a_value(random_network):
    largest = [[17, 16, 15, 14], [13, 12, 11, 10], [9, 8, 7, 6], [5, 4, 3, 1]]
    one_gap = [[16, 15, 14, 13], [12, 11, 10, 9], [8, 7, 6, 5], [4, 3, 2, 1]]  # 2 closed up
    assert np.isfinite(value(random_network, largest))
    assert value(random_network, largest) == value(random_network,
                                                   [[15, 15, 14, 13], *one_gap[1:]])


@pytest.mark.slow
def test_int16_weights_read_as_the_float32_of_the_same_values():
    network = empty_network(((0, 1, 2, 3), (4, 5, 8, 9)))  # small: every weight drawn quickly
    rng = np.random.default_rng(3)
    whole = (rng.standard_normal(network.weights.shape, dtype=np.float32) * 3000).astype(
        np.int16)
    whole.flat[:4] = [0, 32767, -32767, -1]  # the extremes
    rounded = Network(network.shapes, whole.astype(np.float32))
    served = Network(network.shapes, whole)
    for board in ([[0] * 4] * 4, BOARD, [[1, 1, 0, 0], [0] * 4, [0] * 4, [0] * 4]):
        assert value(served, board) == value(rounded, board)


def test_shapes_must_be_increasing_runs_of_at_most_two():
    assert placements(np.array(SHAPES)).shape == (len(SHAPES), 5)
    assert placements(np.array(LATE_SHAPES)).shape == (len(LATE_SHAPES), 5)
    with pytest.raises(ValueError, match="increasing"):
        placements(np.array([[1, 0, 2, 3, 4, 5]]))
    with pytest.raises(ValueError, match="two runs"):
        placements(np.array([[0, 2, 4, 6, 8, 10]]))


def test_an_empty_network_has_both_stages():
    assert empty_network().weights.shape == (STAGES, len(SHAPES), 16 ** 6)


SMALL_SHAPES = ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 4, 5))  # 16**4 weights a shape: quick


@pytest.mark.parametrize("first_stages, read_by_stage", [
    ((0, 0, 1), (2, 3)),  # the last shape is the late stages' alone
    ((0, 1, 1), (1, 3)),
    ((0, 0, 0), (3, 3)),
])
def test_a_stage_reads_the_shapes_read_from_it_or_before(first_stages, read_by_stage):
    network = empty_network(SMALL_SHAPES, first_stages=first_stages)
    network.weights[:] = 1.0  # the weights a stage does not read count too, if read
    early = [[13, 12, 11, 10], [1, 2, 3, 0], [0] * 4, [0] * 4]
    late = [[14, 12, 11, 10], *early[1:]]
    assert value(network, early) == 8 * read_by_stage[0]
    assert value(network, late) == 8 * read_by_stage[1]


def test_shapes_read_from_a_later_stage_come_after_the_others():
    with pytest.raises(ValueError, match="never decreasing"):
        placements(np.array(SMALL_SHAPES), np.array([0, 1, 0]))
    with pytest.raises(ValueError, match="one for each shape"):
        Network(np.array(SMALL_SHAPES), np.zeros((2, 3, 16**4), np.float32),
                first_stages=np.array([0, 1]))
