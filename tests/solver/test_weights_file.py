"""The weights file: saved and loaded back, memory-mapped once unpacked, refused when damaged.

The files here hold a small network of two 4-cell shapes (2 x 16**4 weights a stage), so that
saving and checking them takes milliseconds; the shipped file is loaded in full once."""

import numpy as np
import pytest

from engine import DIRECTIONS
from engine.solver import Solver, weights_file
from engine.solver import solver as solver_module
from engine.solver.settings import ALTERNATIVES
from engine.solver.ntuple import (
    MAX_CELL_EXPONENT, MOST_STAGES, READ_DOWN_TOP, SHAPES, STAGES, Network, empty_network,
)
from engine.solver.weights_file import WeightsError

COUNTERS = {"seed": 3, "rounds": 7, "games": 1234, "moves": 567890}
SMALL_SHAPES = ((0, 1, 2, 3), (4, 5, 8, 9))
SIZE = 16 ** 4
BOARD = [[2, 4, 8, 16], [0, 2, 0, 4], [0, 0, 2, 0], [0, 0, 0, 2]]


@pytest.fixture(scope="module")
def network() -> Network:
    network = empty_network(SMALL_SHAPES)
    network.weights[:, :, :1000] = np.linspace(-500, 500, 1000, dtype=np.float32)
    return network


@pytest.fixture(scope="module")
def saved(tmp_path_factory, network):
    path = tmp_path_factory.mktemp("weights") / "ntuple.npz"
    weights_file.save(path, network, COUNTERS)
    return path


def test_saved_weights_load_back_the_same(saved, network):
    loaded = weights_file.load(saved)
    assert np.array_equal(loaded.shapes, network.shapes)
    assert np.array_equal(loaded.weights, network.weights)
    assert weights_file.training_counters(saved) == COUNTERS


def test_a_compact_file_keeps_each_late_stage_as_what_it_adds_exactly(tmp_path):
    """Three stages, the third far from the second (differences past int16's range wrap) and
    the second a copy of the first but for one weight: each loads back exactly, and a copied
    stage is kept as zeros."""
    network = empty_network(SMALL_SHAPES, stages=3, late_top=READ_DOWN_TOP)
    network.weights[0] = np.linspace(-32767, 32767, network.weights[0].size).reshape(2, SIZE)
    network.weights[1] = network.weights[0]
    network.weights[1, 1, 7] = 12.0
    network.weights[2] = -network.weights[0]
    path = tmp_path / "staged.npz"
    weights_file.save(path, network, COUNTERS, compact=True)
    assert np.count_nonzero(stage_weights(path, 1)) == 1
    loaded = weights_file.load(path)
    assert loaded.late_top == READ_DOWN_TOP
    assert np.array_equal(loaded.weights, weights_file.in_whole_points(network.weights))


def stage_files(path):
    """The stage files the weights file names, in stage order."""
    with np.load(path) as stored:
        return [weights_file.stage_path(path, str(digest)) for digest in stored["stages"]]


def stage_weights(path, stage):
    """The weights a file keeps for `stage`, read from that stage's own file."""
    with np.load(stage_files(path)[stage]) as stored:
        return stored["stage"]


def files_beside(path):
    """The stage files of the weights file's name that are on disk, named or not."""
    return sorted(path.parent.glob(f"{path.stem}{weights_file.STAGE_INFIX}*.npz"))


def two_stages(first, second):
    """A small compact network of two stages of the given constant weights."""
    network = empty_network(SMALL_SHAPES)
    network.weights[0], network.weights[1] = first, second
    return network


def test_a_stage_that_did_not_change_is_saved_as_the_same_file(tmp_path):
    before, after = tmp_path / "before" / "ntuple.npz", tmp_path / "after" / "ntuple.npz"
    weights_file.save(before, two_stages(5, 7), COUNTERS, compact=True)
    weights_file.save(after, two_stages(5, 9), COUNTERS, compact=True)
    (first, late), (same_first, new_late) = stage_files(before), stage_files(after)
    assert first.name == same_first.name and first.read_bytes() == same_first.read_bytes()
    assert late.name != new_late.name
    assert np.array_equal(weights_file.load(after).weights[1], np.full((2, SIZE), 9))


def test_saving_again_removes_the_stage_files_the_network_no_longer_names(tmp_path):
    path = tmp_path / "ntuple.npz"
    weights_file.save(path, two_stages(5, 7), COUNTERS, compact=True)
    weights_file.save(path, two_stages(5, 9), COUNTERS, compact=True)
    other = tmp_path / "other.npz"
    weights_file.save(other, two_stages(1, 1), COUNTERS, compact=True)
    assert files_beside(path) == sorted(stage_files(path))
    assert len(files_beside(other)) == 2
    assert np.array_equal(weights_file.load(path).weights[1], np.full((2, SIZE), 9))


def test_a_missing_or_altered_stage_file_is_refused(tmp_path):
    path = tmp_path / "ntuple.npz"
    weights_file.save(path, two_stages(5, 7), COUNTERS, compact=True)
    first, late = stage_files(path)
    late.write_bytes(first.read_bytes())  # a valid stage, not the one its name promises
    with pytest.raises(WeightsError, match="does not match its digest"):
        weights_file.load(path)
    late.unlink()
    with pytest.raises(WeightsError, match="cannot read"):
        weights_file.load(path)


def test_a_network_s_files_are_the_weights_file_and_the_stages_it_names(tmp_path):
    path = tmp_path / "ntuple.npz"
    weights_file.save(path, two_stages(5, 5), COUNTERS)  # float32: two equal stages, one file
    assert weights_file.network_files(path) == [path, *stage_files(path)[:1]]
    assert weights_file.network_files(stored(tmp_path / "one-file.npz")) == [
        tmp_path / "one-file.npz"]


def with_stages(path, digests):
    """The weights file at `path` rewritten to name the stages `digests`."""
    with np.load(path) as stored:
        arrays = {name: stored[name] for name in stored.files}
    np.savez_compressed(path, **{**arrays, "stages": np.array(digests)})


def test_a_file_naming_stages_that_cannot_be_its_own_is_refused(tmp_path):
    path = tmp_path / "ntuple.npz"
    weights_file.save(path, two_stages(5, 7), COUNTERS, compact=True)
    with np.load(path) as stored:
        first, late = (str(digest) for digest in stored["stages"])
    for digests, message in [([first] * (MOST_STAGES + 1), "4 stages"),
                             ([first, "../" + late[3:]], "not a SHA-256")]:
        with_stages(path, digests)
        with pytest.raises(WeightsError, match=message):
            weights_file.load(path)
    floats = tmp_path / "floats.npz"
    weights_file.save(floats, two_stages(5, 7), COUNTERS)  # float32 stages
    with np.load(floats) as stored:
        float_late = str(stored["stages"][1])
    stage_files(floats)[1].rename(weights_file.stage_path(path, float_late))
    with_stages(path, [first, float_late])
    with pytest.raises(WeightsError, match="stage 1 is float32"):
        weights_file.load(path)


def late_shaped(path):
    """A compact file of two stages whose third shape the second stage alone reads."""
    network = empty_network((*SMALL_SHAPES, (0, 1, 4, 5)), first_stages=(0, 0, 1))
    network.weights[:, :2, :1000] = np.linspace(-500, 500, 1000, dtype=np.float32)
    network.weights[1, 2, :1000] = np.linspace(300, -300, 1000, dtype=np.float32)
    weights_file.save(path, network, COUNTERS, compact=True)
    return network


def test_a_late_shape_loads_back_with_the_stage_it_is_read_from(tmp_path):
    network = late_shaped(tmp_path / "late.npz")
    loaded = weights_file.load(tmp_path / "late.npz")
    assert loaded.first_stages.tolist() == [0, 0, 1]
    assert np.array_equal(loaded.placements, network.placements)
    assert np.array_equal(loaded.weights, weights_file.in_whole_points(network.weights))


def test_a_stage_file_keeps_the_shapes_its_stage_reads(tmp_path):
    """The first stage's file leaves the late shape out: the same file as a network without
    it, which git stores once."""
    network = late_shaped(tmp_path / "late.npz")
    assert stage_weights(tmp_path / "late.npz", 0).shape == (2, SIZE)
    assert stage_weights(tmp_path / "late.npz", 1).shape == (3, SIZE)
    without = Network(network.shapes[:2], network.weights[:, :2])
    weights_file.save(tmp_path / "without.npz", without, COUNTERS, compact=True)
    assert stage_files(tmp_path / "without.npz")[0].read_bytes() == stage_files(
        tmp_path / "late.npz")[0].read_bytes()


@pytest.mark.parametrize("first_stages, problem", [
    (np.array([0, 1, 0], dtype=np.int8), "not valid.*never decreasing"),  # late before early
    (np.array([0, 1], dtype=np.int8), "not valid.*for each shape"),
    (np.array([0, 0, 2], dtype=np.int8), "cannot read.*from stage 2 of 2"),
    (np.array([0, -1, 1], dtype=np.int8), "not valid.*from 0"),
    (np.array([0.0, 0.0, 1.0], dtype=np.float32), "not valid.*one integer"),
    (np.array([0, 0, 0], dtype=np.int8), "cannot read.*stage 0 is int16 \\(2, 65536\\)"),
])
def test_first_stages_that_cannot_be_read_are_refused(tmp_path, first_stages, problem):
    path = tmp_path / "late.npz"
    late_shaped(path)
    with np.load(path) as arrays:
        kept = dict(arrays)
    np.savez_compressed(path, **{**kept, "first_stages": first_stages})
    with pytest.raises(WeightsError, match=problem):
        weights_file.load(path)


def test_a_format_4_file_loads_its_stages_from_itself(tmp_path):
    whole = np.arange(3 * 2 * SIZE, dtype=np.int64).reshape(3, 2, SIZE) % 1000
    path = stored(tmp_path / "one-file.npz", format=4,
                  weights=weights_file.stage_differences(whole.astype(np.int16)))
    assert np.array_equal(weights_file.load(path).weights, whole)


def test_a_format_3_file_loads_as_two_whole_stages_read_as_they_are(tmp_path):
    weights = np.arange(STAGES * 2 * SIZE, dtype=np.int64).reshape(STAGES, 2, SIZE) % 1000
    path = stored(tmp_path / "old.npz", format=3, weights=weights.astype(np.int16))
    with np.load(path) as arrays:  # the late_top the helper adds is not read
        assert "late_top" in arrays
    loaded = weights_file.load(path)
    assert loaded.late_top == MAX_CELL_EXPONENT
    assert loaded.first_stages.tolist() == [0, 0]  # every stage reads every shape
    assert np.array_equal(loaded.weights, weights)


def test_compact_weights_load_as_whole_points(tmp_path, network):
    path = tmp_path / "compact.npz"
    weights_file.save(path, network, COUNTERS, compact=True)
    loaded = weights_file.load(path)
    assert loaded.weights.dtype == np.int16
    assert np.array_equal(weights_file.as_float32(loaded), np.rint(network.weights))


@pytest.mark.parametrize("compact", [False, True])
def test_a_weight_that_is_no_number_is_not_saved(tmp_path, compact):
    network = empty_network(SMALL_SHAPES)
    network.weights[0, 0, 0] = np.nan
    with pytest.raises(ValueError, match="finite"):
        weights_file.save(tmp_path / "bad.npz", network, COUNTERS, compact=compact)


def test_weights_are_unpacked_once_then_mapped(tmp_path, saved, network):
    first = weights_file.load(saved, unpack_dir=tmp_path)
    unpacked, = tmp_path.glob("ntuple-*.npy")
    written = unpacked.stat().st_mtime_ns
    second = weights_file.load(saved, unpack_dir=tmp_path)
    assert isinstance(first.weights, np.memmap) and isinstance(second.weights, np.memmap)
    assert unpacked.stat().st_mtime_ns == written
    assert np.array_equal(second.weights, network.weights)


def test_a_truncated_unpacked_copy_is_refused(tmp_path, saved):
    weights_file.load(saved, unpack_dir=tmp_path)
    unpacked, = tmp_path.glob("ntuple-*.npy")
    unpacked.write_bytes(unpacked.read_bytes()[:100_000])
    with pytest.raises(WeightsError, match="cannot read"):
        weights_file.load(saved, unpack_dir=tmp_path)


def stored(path, **changes):
    """A weights file of the format that keeps its stages in itself (4), with `changes`."""
    arrays = {"format": 4, "shapes": np.array(SMALL_SHAPES, dtype=np.int8),
              "weights": np.zeros((STAGES, len(SMALL_SHAPES), SIZE), dtype=np.int16),
              "late_top": MAX_CELL_EXPONENT, **COUNTERS}
    arrays.update(changes)
    np.savez_compressed(path, **arrays)
    return path


@pytest.mark.parametrize("changes", [
    {"format": 1},
    {"shapes": np.array([[0, 1, 2, 16]] * 2, dtype=np.int8)},
    {"shapes": np.array([[0, 1, 1, 2]] * 2, dtype=np.int8)},
    {"shapes": np.array([[0, 2, 4, 6]] * 2, dtype=np.int8)},
    {"shapes": np.array(SMALL_SHAPES, dtype=np.float32)},
    {"weights": np.zeros((STAGES, 2, SIZE), dtype=np.float64)},
    {"weights": np.zeros((STAGES, 2, SIZE), dtype=np.float16)},  # format 2's
    {"weights": np.zeros((MOST_STAGES + 1, 2, SIZE), dtype=np.int16)},
    {"weights": np.zeros((3, 2, SIZE), dtype=np.int16), "format": 3},  # format 3 had 2
    {"late_top": READ_DOWN_TOP - 1},
    {"late_top": MAX_CELL_EXPONENT + 1},
    {"weights": np.zeros((STAGES, 2, 1 << 12), dtype=np.int16)},
    {"weights": np.full((STAGES, 2, SIZE), np.inf, dtype=np.float32)},
])
def test_an_invalid_network_is_refused(tmp_path, changes):
    with pytest.raises(WeightsError, match="not valid"):
        weights_file.load(stored(tmp_path / "bad.npz", **changes))


def test_a_missing_or_damaged_file_is_refused(tmp_path, saved):
    with pytest.raises(WeightsError, match="cannot read"):
        weights_file.load(tmp_path / "missing.npz")
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(saved.read_bytes()[:saved.stat().st_size // 2])
    with pytest.raises(WeightsError, match="cannot read"):
        weights_file.load(truncated)
    missing_key = tmp_path / "no-weights.npz"
    np.savez_compressed(missing_key, format=weights_file.FORMAT, shapes=np.array(SHAPES))
    with pytest.raises(WeightsError, match="cannot read"):
        weights_file.load(missing_key)


def test_the_shipped_weights_load_and_stay_small():
    shipped = weights_file.load()
    assert [tuple(shape) for shape in shipped.shapes.tolist()] == list(SHAPES)
    files = weights_file.network_files(weights_file.SHIPPED)
    assert sum(file.stat().st_size for file in files) < 100 * 2**20


def test_a_solver_reads_its_weights_only_when_a_search_needs_them(tmp_path, monkeypatch):
    network_setting = solver_module.SETTINGS["strong"]
    for name, heuristic in ALTERNATIVES.items():
        monkeypatch.setitem(solver_module.SETTINGS, name, heuristic)
    solver = Solver(None, weights=tmp_path / "missing.npz")  # no setting of SETTINGS needs them
    assert solver.choose(BOARD, "fast") in DIRECTIONS
    with pytest.raises(WeightsError):
        solver.choose(BOARD, network_setting)


def test_a_solver_without_its_weights_stops_at_start_when_a_setting_needs_them(tmp_path):
    assert solver_module.SETTINGS["fast"].evaluation == "network"
    with pytest.raises(WeightsError):
        Solver(None, weights=tmp_path / "missing.npz")


def test_compact_weights_hold_weights_past_their_range_at_its_edge(tmp_path, network):
    large = Network(network.shapes, network.weights.copy())
    large.weights[0, 0, :4] = (40_000.0, -1e6, 1234.5, -2.6)
    path = tmp_path / "compact.npz"
    weights_file.save(path, large, COUNTERS, compact=True)
    loaded = weights_file.as_float32(weights_file.load(path, unpack_dir=None))
    assert loaded[0, 0, :4].tolist() == [32767.0, -32767.0, 1234.0, -3.0]  # to even, nearest
