"""The module-level functions: one shared Solver, made on first use.

Its line tables are kept in locations.default_cache_dir() ($SOLVER_CACHE_DIR, else under
$XDG_CACHE_HOME or ~/.cache).
"""

import threading
from collections.abc import Sequence

from engine.solver.solver import Solver
from engine.solver.locations import default_cache_dir

_default: Solver | None = None
_default_lock = threading.Lock()


def default_solver() -> Solver:
    """The Solver behind choose, evaluate_moves and warm_up."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Solver(default_cache_dir())
        return _default


def evaluate_moves(rows: Sequence[Sequence[int]], setting: str = "fast") -> dict[str, float]:
    """Value of each legal move (higher is better; compare values within one call only).

    >>> sorted(evaluate_moves([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]))
    ['down', 'left', 'right']
    """
    return default_solver().evaluate_moves(rows, setting)


def choose(rows: Sequence[Sequence[int]], setting: str = "fast") -> str | None:
    """The best move for a board, or None when no move is legal.

    >>> choose([[0, 0, 0, 0], [2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4]])  # the only legal move
    'up'
    """
    return default_solver().choose(rows, setting)


def warm_up() -> None:
    """Build the tables and load the compiled search, so the first hint is fast."""
    default_solver().warm_up()
