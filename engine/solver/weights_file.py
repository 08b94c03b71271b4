"""The n-tuple network's weights file: an .npz of its shapes and float32 weights.

The file shipped with the package is weights/ntuple.npz (made by bench/train_ntuple.py).
Loading checks everything the compiled evaluation relies on, so a missing, truncated or
altered file is a WeightsError naming the file, never a network that plays wrong moves.
"""

import zipfile
from pathlib import Path

import numpy as np

from engine.solver.ntuple import INDEX_BITS, Network

SHIPPED = Path(__file__).with_name("weights") / "ntuple.npz"
FORMAT = 1


class WeightsError(ValueError):
    """The weights file is missing, unreadable or not a valid network."""


def save(path: Path, network: Network) -> None:
    """Write a network's weights file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, format=FORMAT, shapes=network.shapes.astype(np.int8),
                        weights=network.weights.astype(np.float32))


def load(path: Path = SHIPPED) -> Network:
    """The network in a weights file, checked; WeightsError if it cannot be used."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            version, shapes, weights = stored["format"], stored["shapes"], stored["weights"]
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise WeightsError(f"cannot read the solver's weights file {path}: {error}") from error
    problem = _problem(version, shapes, weights)
    if problem:
        raise WeightsError(f"the solver's weights file {path} is not valid: {problem}")
    return Network(shapes.astype(np.int64), weights)


def _problem(version: np.ndarray, shapes: np.ndarray, weights: np.ndarray) -> str | None:
    """What is wrong with the stored arrays, or None."""
    if version.shape != () or int(version) != FORMAT:
        return f"format {version!r}, expected {FORMAT}"
    if shapes.ndim != 2 or shapes.dtype.kind != "i" or not 1 <= shapes.shape[1] <= 6:
        return f"shapes must be a 2-D integer array of 1 to 6 cells each, not {shapes.shape}"
    if shapes.min() < 0 or shapes.max() > 15:
        return "a shape names a cell outside the board"
    if any(len(set(shape)) != len(shape) for shape in shapes.tolist()):
        return "a shape names a cell twice"
    expected = (shapes.shape[0], 1 << (INDEX_BITS * shapes.shape[1]))
    if weights.dtype != np.float32 or weights.shape != expected:
        return f"weights must be float32 of shape {expected}, not {weights.dtype} {weights.shape}"
    if not np.isfinite(weights).all():
        return "weights must be finite"
    return None
