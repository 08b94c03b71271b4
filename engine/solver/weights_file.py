"""The n-tuple network's weights file: a compressed .npz of its shapes, its weights (int16 whole
points, or float32) and the training counters a run resumes from (seed, rounds, games, moves).

The file shipped with the package is weights/ntuple.npz (made by training/trainer.py).
Loading checks everything the compiled evaluation relies on, so a missing, truncated or
altered file is a WeightsError naming the file, never a network that plays wrong moves.

Served, the weights are memory-mapped: the first load unpacks them, checked, into an .npy in
the cache directory named by the file's SHA-256, and every later load (every worker of a host)
maps that same .npy read-only, so the operating system keeps one copy in its page cache and a
load costs the hash of the file. Without a cache directory they are read into memory.
"""

import hashlib
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from engine.solver.ntuple import INDEX_BITS, STAGES, Network, placements

SHIPPED = Path(__file__).with_name("weights") / "ntuple.npz"
FORMAT = 3  # 2 kept float16 weights
COUNTERS = ("seed", "rounds", "games", "moves")
UNPACKED_PREFIX = "ntuple-"
WHOLE_POINTS_LIMIT = int(np.iinfo(np.int16).max)  # the largest weight a compact file keeps


class WeightsError(ValueError):
    """The weights file is missing, unreadable or not a valid network."""


def save(path: Path, network: Network, counters: dict[str, int], compact: bool = False
         ) -> None:
    """Write a network's weights file (int16 whole points if `compact`, see
    `in_whole_points`; float32 otherwise)."""
    weights = as_float32(network)
    if not np.isfinite(weights).all():
        raise ValueError("a weight is not a finite number")
    weights = in_whole_points(weights) if compact else weights
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, format=FORMAT, shapes=network.shapes.astype(np.int8),
                        weights=weights, **{name: counters[name] for name in COUNTERS})


def in_whole_points(weights: np.ndarray) -> np.ndarray:
    """float32 weights rounded to whole points as int16, the few past its range (32,767) held
    at its edge: bench/network_precision.py measures what that changes in play. (float16, the
    other 16-bit choice, keeps a relative precision: on the larger weights its steps reach 8
    to 32 points, and it changed three times as many one-move-ahead choices.)"""
    return np.clip(np.rint(weights), -WHOLE_POINTS_LIMIT, WHOLE_POINTS_LIMIT).astype(np.int16)


def as_float32(network: Network) -> np.ndarray:
    """The network's weights as a new float32 array."""
    return network.weights.astype(np.float32)


def training_counters(path: Path) -> dict[str, int]:
    """The counters a training run resumes from."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            return {name: int(stored[name]) for name in COUNTERS}
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise WeightsError(f"cannot read the training counters in {path}: {error}") from error


def load(path: Path = SHIPPED, unpack_dir: Path | None = None) -> Network:
    """The network in a weights file, checked; WeightsError if it cannot be used. With an
    `unpack_dir` the weights are memory-mapped from there (unpacked on first use)."""
    try:
        with open(path, "rb") as file:
            digest = hashlib.file_digest(file, "sha256").hexdigest()[:32]
        with np.load(path, allow_pickle=False) as stored:
            version, shapes = stored["format"], stored["shapes"]
            problem = _shapes_problem(version, shapes)
            unpacked = unpack_dir / f"{UNPACKED_PREFIX}{digest}.npy" if unpack_dir else None
            if not problem and unpacked is not None and unpacked.exists():
                weights = np.load(unpacked, mmap_mode="r", allow_pickle=False)
                problem = _layout_problem(shapes, weights)
            else:
                weights = stored["weights"]
                problem = problem or _layout_problem(shapes, weights) or _values_problem(weights)
                if not problem and unpacked is not None:
                    weights = _unpacked(weights, unpacked)
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise WeightsError(f"cannot read the solver's weights file {path}: {error}") from error
    if problem:
        raise WeightsError(f"the solver's weights file {path} is not valid: {problem}")
    return Network(shapes.astype(np.int64), weights)


def _unpacked(weights: np.ndarray, unpacked: Path) -> np.ndarray:
    """The checked weights written to `unpacked` (atomically) and mapped from there; in memory
    when the directory cannot be written."""
    try:
        unpacked.parent.mkdir(parents=True, exist_ok=True)
        for stale in unpacked.parent.glob(f"{UNPACKED_PREFIX}*.npy"):
            if stale.name != unpacked.name:  # another worker may be mapping this one
                stale.unlink(missing_ok=True)
        handle, temporary = tempfile.mkstemp(dir=unpacked.parent, suffix=".partial")
        with os.fdopen(handle, "wb") as file:
            np.save(file, weights)
        os.chmod(temporary, 0o644)
        os.replace(temporary, unpacked)
    except OSError:
        return weights
    return np.load(unpacked, mmap_mode="r", allow_pickle=False)


def _shapes_problem(version: np.ndarray, shapes: np.ndarray) -> str | None:
    if version.shape != () or int(version) != FORMAT:
        return f"format {version!r}, expected {FORMAT}"
    if shapes.ndim != 2 or shapes.dtype.kind != "i" or not 1 <= shapes.shape[1] <= 6:
        return f"shapes must be a 2-D integer array of 1 to 6 cells each, not {shapes.shape}"
    if shapes.min() < 0 or shapes.max() > 15:
        return "a shape names a cell outside the board"
    try:
        placements(shapes)
    except ValueError as error:
        return str(error)
    return None


def _layout_problem(shapes: np.ndarray, weights: np.ndarray) -> str | None:
    expected = (STAGES, shapes.shape[0], 1 << (INDEX_BITS * shapes.shape[1]))
    if weights.dtype not in (np.int16, np.float32) or weights.shape != expected:
        return (f"weights must be int16 or float32 of shape {expected}, "
                f"not {weights.dtype} {weights.shape}")
    return None


def _values_problem(weights: np.ndarray) -> str | None:
    if not np.isfinite(weights).all():
        return "weights must be finite"
    return None
