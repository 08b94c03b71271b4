"""The line tables the search reads: slides, points and heuristic scores of every line code.

Building them takes a noticeable fraction of a second, so they are kept in a cache directory
and reloaded by a restarted server. The file name carries a hash of the code and weights that
made them, so a change rebuilds them. A missing, unwritable or read-only directory only costs
the build at every start: the tables are then made in memory.
"""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.solver import board, heuristic

@dataclass(frozen=True)
class LineTables:
    """One entry per line code: the code after sliding toward the first cell and toward the
    last (the two rows of `slides`, see board.slide_table), the points of the slide, and the
    heuristic's score of the line."""

    slides: np.ndarray
    points: np.ndarray
    line_scores: np.ndarray


def _stored_file(cache_dir: Path, weights: heuristic.Weights) -> Path:
    digest = hashlib.sha256(repr(weights).encode())
    for source in (board.__file__, heuristic.__file__, __file__):  # the code that builds them
        digest.update(Path(source).read_bytes())
    return cache_dir / f"line-tables-{digest.hexdigest()[:16]}.npz"


def _build(weights: heuristic.Weights) -> LineTables:
    toward_first, toward_last, points = board.build_slide_tables()
    return LineTables(board.slide_table(toward_first, toward_last), points,
                      heuristic.build_line_scores(weights))


def load_line_tables(cache_dir: Path | None,
                     weights: heuristic.Weights = heuristic.Weights()) -> LineTables:
    """Tables for these weights, from the cache directory when they were built before.

    With `cache_dir` None they are built in memory and nothing is written.
    """
    if cache_dir is None:
        return _build(weights)
    stored = _stored_file(cache_dir, weights)
    try:
        with np.load(stored) as arrays:
            return LineTables(arrays["slides"], arrays["points"], arrays["line_scores"])
    except (OSError, KeyError, ValueError):
        pass
    tables = _build(weights)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        partial = stored.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(partial, **vars(tables))
        os.replace(partial, stored)
    except OSError:
        pass  # a read-only or unusable directory: the tables stay in memory only
    return tables
