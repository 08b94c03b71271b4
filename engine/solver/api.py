"""The solver's public functions: validate a board, run the search, name the best move."""

import threading
import time
from collections.abc import Sequence
from functools import cache

import numpy as np

from engine import DIRECTIONS
from engine.solver.board import encode
from engine.solver.search import GENERATION, NODE_LIMIT, NODES, move_values
from engine.solver.settings import SETTINGS, Setting
from engine.solver.tables import Tables, load_tables
from engine.validation import exponent_rows


# One search at a time: they share the tables' cache and counters (and hold the GIL anyway).
_search_lock = threading.Lock()


@cache
def _tables() -> Tables:
    return load_tables()


def _setting(name: object) -> Setting:
    if not isinstance(name, str) or name not in SETTINGS:
        raise ValueError(f"unknown setting {name!r}; expected one of {tuple(SETTINGS)}")
    return SETTINGS[name]


def _search(exponents: tuple[tuple[int, ...], ...], setting: Setting) -> np.ndarray:
    """Move values from iterative deepening up to the setting's depth for this board.

    All passes together may expand at most the setting's node limit; a pass that would pass it
    is dropped and the previous pass decides. That is the same every time. On top of it, a pass
    gets no more nodes than the remaining time allows at the speed measured so far, so a machine
    much slower than usual stops early instead of overrunning the time budget.
    """
    tables = _tables()
    board = encode(exponents)
    distinct = len({exponent for row in exponents for exponent in row if exponent})
    counters = tables.counters
    counters[GENERATION] += 1  # a new cache generation: forget earlier searches
    started = time.perf_counter()

    def run(depth: int, node_cap: int) -> tuple[np.ndarray, int]:
        counters[NODES], counters[NODE_LIMIT] = 0, node_cap
        values = move_values(board, depth, setting.probability_cutoff, tables.lines,
                             tables.cache_keys, tables.cache_values, counters)
        return values, int(counters[NODES])

    values, _ = run(1, 1)  # one move ahead expands nothing: always there to fall back on
    nodes_used = 0
    for depth in range(2, setting.depth_for(distinct) + 1):
        node_cap = setting.node_limit - nodes_used
        elapsed = time.perf_counter() - started
        if nodes_used >= 1000:
            node_cap = min(node_cap, int((setting.time_budget - elapsed) * nodes_used / elapsed))
        deeper_values, nodes = run(depth, node_cap)
        if nodes >= node_cap:
            break
        values = deeper_values
        nodes_used += nodes
    return values


def evaluate_moves(rows: Sequence[Sequence[int]], setting: str = "fast") -> dict[str, float]:
    """Value of each legal move (higher is better; compare values within one call only).

    >>> sorted(evaluate_moves([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]))
    ['down', 'left', 'right']
    """
    exponents, chosen_setting = exponent_rows(rows), _setting(setting)
    with _search_lock:
        values = _search(exponents, chosen_setting)
    return {
        direction: float(value) for direction, value in zip(DIRECTIONS, values) if value > -np.inf
    }


def choose(rows: Sequence[Sequence[int]], setting: str = "fast") -> str | None:
    """The best move for a board, or None when no move is legal.

    >>> choose([[0, 0, 0, 0], [2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4]])  # the only legal move
    'up'
    """
    values = evaluate_moves(rows, setting)
    return max(values, key=values.get) if values else None


def warm_up() -> None:
    """Build the tables and load the compiled search, so the first hint is fast."""
    for setting in SETTINGS:
        choose([[2, 4, 8, 16], [0, 2, 0, 4], [0, 0, 2, 0], [0, 0, 0, 2]], setting)
