"""The rounding check a network passes before it ships as int16 whole points
(bench.network_precision), run end to end on small weights files."""

import numpy as np
import pytest

from bench import network_precision
from engine.solver import weights_file
from engine.solver.ntuple import empty_network

SMALL_SHAPES = ((0, 1, 2, 3), (4, 5, 8, 9))


def saved(path, scale):
    """A small network of seeded random weights of about `scale` points, written at `path`."""
    network = empty_network(SMALL_SHAPES)
    network.weights[:] = np.random.default_rng(3).normal(0.0, scale, network.weights.shape)
    weights_file.save(path, network, {"seed": 1, "rounds": 0, "games": 0, "moves": 0})
    return path


@pytest.mark.parametrize(("scale", "verdict"), [(1000.0, "int16 will do"),
                                                (0.3, "keep float32")])
def test_the_verdict_follows_the_moves_whole_points_change(tmp_path, capsys, scale, verdict):
    path = saved(tmp_path / "network.npz", scale)
    network_precision.main(["--weights", str(path), "--games", "3"])
    printed = capsys.readouterr().out
    assert printed.rstrip().endswith(verdict)
    assert "3 games (0 trained)" in printed
