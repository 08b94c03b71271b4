"""The n-tuple network: symmetric, defined for every tile up to 131072, loaded only when valid."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.solver import Solver, weights_file
from engine.solver.board import encode
from engine.solver.ntuple import SHAPES, Network, empty_network, network_value
from engine.solver.weights_file import WeightsError

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
def shipped() -> Network:
    return weights_file.load()


@pytest.fixture(scope="module")
def random_network() -> Network:
    network = empty_network()
    network.weights[:] = np.random.default_rng(7).normal(size=network.weights.shape)
    return network


def value(network: Network, exponents) -> float:
    return network_value(encode(tuple(map(tuple, exponents))), network.weights,
                         network.placements)


exponent_boards = st.lists(st.lists(st.integers(0, 17), min_size=4, max_size=4),
                           min_size=4, max_size=4)


@settings(max_examples=100, deadline=None)
@given(exponent_boards)
def test_a_board_and_its_seven_images_score_the_same(random_network, exponents):
    first, *others = (value(random_network, image) for image in symmetric_images(exponents))
    assert all(other == pytest.approx(first, rel=1e-6) for other in others)


def test_the_shipped_network_is_symmetric_too(shipped):
    values = [value(shipped, image) for image in symmetric_images(BOARD)]
    assert values == pytest.approx([values[0]] * 8, rel=1e-6)


def test_tiles_above_8192_are_read_smaller_where_a_value_is_missing(random_network):
    with_16384 = [[14, 12, 11, 10], [1, 2, 3, 0], [0] * 4, [0] * 4]  # no 8192 on the board
    with_8192 = [[13, 12, 11, 10], [1, 2, 3, 0], [0] * 4, [0] * 4]
    assert value(random_network, with_16384) == value(random_network, with_8192)
    no_gap = [[14, 13, 12, 11], [10, 9, 8, 7], [6, 5, 4, 3], [2, 1, 0, 0]]  # nothing to close up
    assert value(random_network, no_gap) != value(random_network, [[13, 12, 11, 10], *no_gap[1:]])


def test_every_board_up_to_131072_has_a_value(random_network):
    largest = [[17, 16, 15, 14], [13, 12, 11, 10], [9, 8, 7, 6], [5, 4, 3, 1]]
    one_gap = [[16, 15, 14, 13], [12, 11, 10, 9], [8, 7, 6, 5], [4, 3, 2, 1]]  # 2 closed up
    assert np.isfinite(value(random_network, largest))
    # closed up and capped: 131072 and 65536 both read as 32768
    assert value(random_network, largest) == value(random_network,
                                                   [[15, 15, 14, 13], *one_gap[1:]])


def test_the_shipped_weights_load(shipped):
    assert [tuple(shape) for shape in shipped.shapes.tolist()] == list(SHAPES)
    assert shipped.weights.dtype == np.float32 and np.any(shipped.weights)
    assert weights_file.SHIPPED.stat().st_size < 32 * 2**20


def test_saved_weights_load_back_the_same(tmp_path, random_network):
    path = tmp_path / "ntuple.npz"
    weights_file.save(path, random_network)
    loaded = weights_file.load(path)
    assert np.array_equal(loaded.shapes, random_network.shapes)
    assert np.array_equal(loaded.weights, random_network.weights)


def stored(path, **changes):
    arrays = {"format": weights_file.FORMAT, "shapes": np.array(SHAPES, dtype=np.int8),
              "weights": np.zeros((len(SHAPES), 1 << 20), dtype=np.float32)}
    arrays.update(changes)
    np.savez_compressed(path, **arrays)
    return path


@pytest.mark.parametrize("changes", [
    {"format": 2},
    {"shapes": np.array([[0, 1, 2, 3, 16]] * 5, dtype=np.int8)},
    {"shapes": np.array([[0, 1, 2, 3, 3]] * 5, dtype=np.int8)},
    {"shapes": np.array(SHAPES, dtype=np.float32)},
    {"weights": np.zeros((len(SHAPES), 1 << 20), dtype=np.float64)},
    {"weights": np.zeros((len(SHAPES), 1 << 16), dtype=np.float32)},
    {"weights": np.full((len(SHAPES), 1 << 20), np.nan, dtype=np.float32)},
])
def test_an_invalid_network_is_refused(tmp_path, changes):
    with pytest.raises(WeightsError, match="not valid"):
        weights_file.load(stored(tmp_path / "bad.npz", **changes))


def test_a_missing_or_damaged_file_is_refused(tmp_path):
    with pytest.raises(WeightsError, match="cannot read"):
        weights_file.load(tmp_path / "missing.npz")
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(weights_file.SHIPPED.read_bytes()[:100_000])
    with pytest.raises(WeightsError, match="cannot read"):
        weights_file.load(truncated)
    missing_key = tmp_path / "no-weights.npz"
    np.savez_compressed(missing_key, format=weights_file.FORMAT, shapes=np.array(SHAPES))
    with pytest.raises(WeightsError, match="cannot read"):
        weights_file.load(missing_key)


def test_a_solver_without_its_weights_stops_at_start(tmp_path):
    with pytest.raises(WeightsError):
        Solver(None, weights=tmp_path / "missing.npz")
