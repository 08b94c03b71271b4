"""How good a board looks: a sum of precomputed scores of its 4 rows and 4 columns.

Each line (row or column) is scored once for all 2**20 line codes (see board.py):
  + empty cells and possible merges (room to keep playing),
  - non-monotonicity: tiles should grow steadily toward one end of the line, which together
    over rows and columns pulls the large tiles into a corner,
  - tile mass: a board holding the same total in fewer, larger tiles scores higher.
A board with no legal move is worth 0 to the search (search.DEAD); `line_base` is large enough
that every line of tiles up to 131072 scores above 0, so losing is worse than any live board.
"""

from dataclasses import dataclass

import numpy as np
from numba import njit

from engine.solver.board import LINE_CODES, line_cells


@dataclass(frozen=True)
class Weights:
    """Weights of the line features; tuned by measuring games (bench/solver_strength.py)."""

    line_base: float = 5_000_000.0
    empty: float = 270.0
    merges: float = 700.0
    monotonicity: float = 47.0
    monotonicity_power: float = 4.0
    mass: float = 11.0
    mass_power: float = 3.5


def build_line_scores(weights: Weights = Weights()) -> np.ndarray:
    """Score of every line code (features as in the module docstring)."""
    cells = line_cells(np.arange(LINE_CODES, dtype=np.int64)).astype(np.float64)
    empty = (cells == 0).sum(axis=1)

    packed = np.take_along_axis(cells, np.argsort(cells == 0, axis=1, kind="stable"), axis=1)
    merges = ((packed[:, :-1] == packed[:, 1:]) & (packed[:, :-1] != 0)).sum(axis=1)

    steps = np.diff(cells**weights.monotonicity_power, axis=1)
    rising = np.clip(steps, 0, None).sum(axis=1)
    falling = np.clip(-steps, 0, None).sum(axis=1)
    non_monotonicity = np.minimum(rising, falling)

    mass = (cells**weights.mass_power).sum(axis=1)
    return (
        weights.line_base
        + weights.empty * empty
        + weights.merges * merges
        - weights.monotonicity * non_monotonicity
        - weights.mass * mass
    )


@njit(nogil=True, cache=True)
def board_score(rows, columns, line_scores):
    """Heuristic value of a board: its rows' and columns' line scores added up."""
    total = 0.0
    for i in range(4):
        total += line_scores[rows[i]] + line_scores[columns[i]]
    return total
