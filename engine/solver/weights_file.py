"""The n-tuple network's weights file: a compressed .npz of its shapes, the first stage that
reads each (`first_stages`), how its late stages read a board (`late_top`) and the training
counters a run resumes from (seed, rounds, games, moves), and the SHA-256 digests of its
stages' weights (int16 whole points, or float32), each stage in a compressed .npz of its own
beside it, named after the file and the digest's start (`ntuple.stage-<digest>.npz`).

The file shipped with the package is weights/ntuple.npz (made by training/trainer.py). In a
compact file (int16) each stage after the first is kept as what it adds to the stage before it
(the difference, wrapping around int16's range, so it is exact): a late stage starts as a copy
of the one before it and training changes a share of its weights, so the rest are zeros that
take next to no room compressed. A stage's file keeps the shapes it reads only (a late shape's
zeros in the first stage are left out), so the first stage of a network whose late stages
gained shapes is the same file as before. A stage kept in a file of its own is written the
same way each time it is saved, so a network that changes only its late stages ships as new
late-stage files beside the same first-stage file, which git stores once. Format 4 files (every
stage in the one file) and format 3 files (two stages, kept whole, boards read as they are)
still load.
Loading checks everything the compiled evaluation relies on, so a missing, truncated or
altered file is a WeightsError naming the file, never a network that plays wrong moves.
Files before format 6 have no late shapes: every stage reads every shape.

Served, the weights are memory-mapped: the first load unpacks them, checked, into an .npy in
the cache directory named by the file's SHA-256 (which covers its stages' digests), and every
later load (every worker of a host) maps that same .npy read-only, so the operating system
keeps one copy in its page cache and a load costs the hash of the file. Without a cache
directory they are read into memory.
"""

import glob
import hashlib
import io
import os
import re
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from engine.solver.ntuple import (
    INDEX_BITS, MAX_CELL_EXPONENT, MOST_STAGES, READ_DOWN_TOP, STAGES, Network, placements,
    shapes_read,
)

SHIPPED = Path(__file__).with_name("weights") / "ntuple.npz"
FORMAT = 6  # 5: no first_stages; 4: the stages in the file itself; 3: whole stages, no
# late_top; 2: float16
READABLE_FORMATS = (3, 4, 5, FORMAT)
STAGE_INFIX = ".stage-"
STAGE_NAME_DIGITS = 16  # of a stage's digest, in its file's name
SHA256_HEX = re.compile(r"[0-9a-f]{64}")
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
    weights = stage_differences(in_whole_points(weights)) if compact else weights
    path.parent.mkdir(parents=True, exist_ok=True)
    digests = [_save_stage(path, weights[stage, :shapes_read(network.placements, stage)])
               for stage in range(weights.shape[0])]
    np.savez_compressed(path, format=FORMAT, shapes=network.shapes.astype(np.int8),
                        first_stages=network.first_stages.astype(np.int8),
                        stages=np.array(digests), late_top=network.late_top,
                        **{name: counters[name] for name in COUNTERS})
    kept = {stage_path(path, digest) for digest in digests}
    for stale in path.parent.glob(f"{glob.escape(path.stem)}{STAGE_INFIX}*.npz"):
        if stale not in kept:
            stale.unlink()


def stage_path(path: Path, digest: str) -> Path:
    """Where the weights file `path` keeps the stage whose SHA-256 is `digest`."""
    return path.with_name(f"{path.stem}{STAGE_INFIX}{digest[:STAGE_NAME_DIGITS]}.npz")


def network_files(path: Path) -> list[Path]:
    """The weights file and the stage files it names: what copying the network copies."""
    with np.load(path, allow_pickle=False) as stored:
        digests = [str(digest) for digest in stored["stages"]] if "stages" in stored else []
    return [path, *dict.fromkeys(stage_path(path, digest) for digest in digests)]


def _save_stage(path: Path, stage: np.ndarray) -> str:
    """Write one stage's weights beside `path`, under its digest; return the digest."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".partial")
    with os.fdopen(handle, "w+b") as file:
        np.savez_compressed(file, stage=stage)
        file.seek(0)
        digest = hashlib.file_digest(file, "sha256").hexdigest()
    os.chmod(temporary, 0o644)
    os.replace(temporary, stage_path(path, digest))
    return digest


def stage_differences(weights: np.ndarray) -> np.ndarray:
    """int16 weights with each stage after the first replaced by its difference from the stage
    before it, wrapping around int16's range (`whole_stages` undoes it exactly)."""
    stored = weights.copy()
    stored[1:] = weights[1:] - weights[:-1]  # int16 arithmetic wraps
    return stored


def whole_stages(stored: np.ndarray) -> np.ndarray:
    """The int16 weights `stage_differences` kept, every stage whole again."""
    return np.cumsum(stored, axis=0, dtype=np.int16)


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
            first_stages = stored["first_stages"] if _has_format(version, 6) else None
            problem = _shapes_problem(version, shapes, first_stages)
            late_top = int(stored["late_top"]) if not problem and int(version) > 3 else (
                MAX_CELL_EXPONENT)
            problem = problem or _late_top_problem(late_top)
            unpacked = unpack_dir / f"{UNPACKED_PREFIX}{digest}.npy" if unpack_dir else None
            if not problem and unpacked is not None and unpacked.exists():
                weights = np.load(unpacked, mmap_mode="r", allow_pickle=False)
                problem = _layout_problem(version, shapes, first_stages, weights)
            elif not problem:
                weights = _stored_weights(path, stored, int(version), shapes, first_stages)
                problem = (_layout_problem(version, shapes, first_stages, weights)
                           or _values_problem(weights))
                if not problem and int(version) > 3 and weights.dtype == np.int16:
                    weights = whole_stages(weights)
                if not problem and unpacked is not None:
                    weights = _unpacked(weights, unpacked)
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise WeightsError(f"cannot read the solver's weights file {path}: {error}") from error
    if problem:
        raise WeightsError(f"the solver's weights file {path} is not valid: {problem}")
    return Network(shapes.astype(np.int64), weights, late_top, first_stages)


def _stored_weights(path: Path, stored: np.lib.npyio.NpzFile, version: int,
                    shapes: np.ndarray, first_stages: np.ndarray | None) -> np.ndarray:
    """The weights as the file keeps them (later compact stages as differences): in it before
    format 5, else from its stage files, each checked against its digest and holding the shapes
    its stage reads (the others' places are zeros)."""
    if version < 5:
        return stored["weights"]
    digests = [str(digest) for digest in stored["stages"]]
    if not 1 <= len(digests) <= MOST_STAGES:
        raise ValueError(f"{len(digests)} stages, expected 1 to {MOST_STAGES}")
    if not all(SHA256_HEX.fullmatch(digest) for digest in digests):
        raise ValueError("a stage's digest is not a SHA-256 in hexadecimal")
    if first_stages is not None and first_stages.max() >= len(digests):
        raise ValueError(f"a shape is read from stage {first_stages.max()} of {len(digests)}")
    reading = placements(shapes, first_stages)
    first = _stored_stage(path, digests[0])
    weights = np.zeros((len(digests), shapes.shape[0], *first.shape[1:]), first.dtype)
    for stage, digest in enumerate(digests):
        kept = first if stage == 0 else _stored_stage(path, digest)
        read = shapes_read(reading, stage)
        if kept.dtype != first.dtype or kept.shape != (read, *first.shape[1:]):
            raise ValueError(f"stage {stage} is {kept.dtype} {kept.shape}, expected "
                             f"{first.dtype} {(read, *first.shape[1:])}")
        weights[stage, :read] = kept
    return weights


def _stored_stage(path: Path, digest: str) -> np.ndarray:
    """One stage's weights from its file, which must match `digest`."""
    stage_file = stage_path(path, digest)
    data = stage_file.read_bytes()  # read once: hashed, then loaded
    if hashlib.sha256(data).hexdigest() != digest:
        raise ValueError(f"{stage_file.name} does not match its digest")
    with np.load(io.BytesIO(data), allow_pickle=False) as stored:
        return stored["stage"]


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


def _has_format(version: np.ndarray, least: int) -> bool:
    """Whether `version` is a readable format from `least` on."""
    return version.shape == () and int(version) in READABLE_FORMATS and int(version) >= least


def _shapes_problem(version: np.ndarray, shapes: np.ndarray, first_stages: np.ndarray | None
                    ) -> str | None:
    if version.shape != () or int(version) not in READABLE_FORMATS:
        return f"format {version!r}, expected one of {READABLE_FORMATS}"
    if shapes.ndim != 2 or shapes.dtype.kind != "i" or not 1 <= shapes.shape[1] <= 6:
        return f"shapes must be a 2-D integer array of 1 to 6 cells each, not {shapes.shape}"
    if shapes.min() < 0 or shapes.max() > 15:
        return "a shape names a cell outside the board"
    if first_stages is not None and (first_stages.dtype.kind != "i"
                                     or first_stages.shape != (shapes.shape[0],)):
        return (f"first_stages must be one integer for each shape, not {first_stages.dtype} "
                f"{first_stages.shape}")
    try:
        placements(shapes, first_stages)
    except ValueError as error:
        return str(error)
    return None


def _late_top_problem(late_top: int) -> str | None:
    if not READ_DOWN_TOP <= late_top <= MAX_CELL_EXPONENT:
        return (f"late_top must be from {READ_DOWN_TOP} to {MAX_CELL_EXPONENT}, not {late_top}")
    return None


def _layout_problem(version: np.ndarray, shapes: np.ndarray, first_stages: np.ndarray | None,
                    weights: np.ndarray) -> str | None:
    stages = (STAGES,) if int(version) == 3 else range(1, MOST_STAGES + 1)
    size = (shapes.shape[0], 1 << (INDEX_BITS * shapes.shape[1]))
    if (weights.dtype not in (np.int16, np.float32) or weights.ndim != 3
            or weights.shape[0] not in stages or weights.shape[1:] != size):
        return (f"weights must be int16 or float32 of {min(stages)} to {max(stages)} stages of "
                f"{size}, not {weights.dtype} {weights.shape}")
    if first_stages is not None and first_stages.max() >= weights.shape[0]:
        return f"a shape is read from stage {first_stages.max()} of {weights.shape[0]}"
    return None


def _values_problem(weights: np.ndarray) -> str | None:
    if not np.isfinite(weights).all():
        return "weights must be finite"
    return None
