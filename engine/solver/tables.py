"""The arrays the search works with: slide and heuristic tables, and the transposition cache.

Building the line tables takes a noticeable fraction of a second, so they are kept on disk next
to numba's compiled code (in __pycache__) and reloaded by a restarted server. The file name
carries a hash of the code and weights that made them, so a change rebuilds them.
"""

import hashlib
import os
from pathlib import Path

import numpy as np

from engine.solver import board, heuristic

CACHE_BITS = 20  # the transposition cache holds 2**20 positions


class Tables:
    """Everything the search reads and writes, kept as arrays numba can take."""

    def __init__(self, toward_first: np.ndarray, toward_last: np.ndarray, line_scores: np.ndarray):
        self.lines = (toward_first, toward_last, line_scores)
        size = 1 << CACHE_BITS
        self.cache_keys = np.full((size, 2), -1, dtype=np.int64)
        self.cache_values = np.zeros((size, 2), dtype=np.float64)  # value, depth
        self.counters = np.zeros(3, dtype=np.int64)


def _stored_file(weights: heuristic.Weights) -> Path:
    digest = hashlib.sha256(repr(weights).encode())
    for module in (board, heuristic):
        digest.update(Path(module.__file__).read_bytes())
    return Path(__file__).with_name("__pycache__") / f"solver-tables-{digest.hexdigest()[:16]}.npz"


def load_tables(weights: heuristic.Weights = heuristic.Weights()) -> Tables:
    """Tables for these weights, from disk when they were built before."""
    stored = _stored_file(weights)
    try:
        with np.load(stored) as arrays:
            return Tables(arrays["toward_first"], arrays["toward_last"], arrays["line_scores"])
    except (OSError, KeyError, ValueError):
        pass
    toward_first, toward_last = board.build_slide_tables()
    line_scores = heuristic.build_line_scores(weights)
    try:
        stored.parent.mkdir(exist_ok=True)
        partial = stored.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(partial, toward_first=toward_first, toward_last=toward_last,
                 line_scores=line_scores)
        os.replace(partial, stored)
    except OSError:
        pass  # a read-only checkout: build the tables at every start
    return Tables(toward_first, toward_last, line_scores)
