"""Expectimax search over the 5-bit board, compiled with numba (the GIL is released inside).

The tree alternates the player's move (take the best of the legal moves) and the random tile
(average over every empty cell, each tile value at its odds in engine.rng.SPAWN_ODDS). A branch
stops and is scored by the evaluation when its depth runs out or when its probability falls
below the cut-off. Values of positions already searched are kept in a transposition cache
stamped with the root search's generation, so nothing carries over from one search to the next.
Work is counted in expanded positions: past the node limit the search gives up, the same way
every time.

Two evaluations, one compiled search each. The heuristic (heuristic.py) rates how a board looks;
the n-tuple network (ntuple.py) estimates the points still to come, so with it a move is worth
the points it scores plus the value of what follows. The search takes the evaluation as flat
arguments: `table` (the heuristic's line scores, or the network's weights), `placements` and
`late_top` (None for the heuristic; the network's placements, and how its late stages read a
board, otherwise) and `points` (None for the heuristic, whose values leave out the points of
moves; the slide table of points for the network). numba
compiles the search once for each set of argument types and settles the `is None` tests while
compiling: the compiled heuristic search never looks at the network, and no leaf tests which
evaluation it uses.

numba checks its on-disk cache of these functions against this file alone, while they inline
the functions of board.py, heuristic.py and ntuple.py: locations.py keeps the compiled code in a
folder named by a digest of every source of the package, so an edit of any of them compiles
afresh.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from engine.rng import SPAWN_ODDS
from engine.solver.board import (
    CELL_BITS, CELL_MASK, empty_count, lines_with_tile, slide, slide_points, transpose,
)
from engine.solver.heuristic import board_score
from engine.solver.ntuple import network_value

DEAD = 0.0  # value of a board with no legal move

# The per-search counters, as one record: positions expanded so far, the most allowed, and the
# generation that stamps this search's cache entries.
SEARCH_STATE = np.dtype([("nodes", np.int64), ("node_limit", np.int64),
                         ("generation", np.int64)])


@njit(nogil=True, cache=True)
def _cache_slot(rows, generation, index_mask):
    """Cache index and the two key words of a board; the generation stamps one root search.

    The arithmetic stays below 2**63, so plain Python computes the same slots.
    """
    mixed = (rows[0] * 0x9E3779B1) ^ (rows[1] * 0x85EBCA77) ^ (rows[2] * 0xC2B2AE3D)
    mixed ^= rows[3] * 0x27D4EB2F
    index = (mixed ^ (mixed >> 21) ^ (mixed >> 42)) & index_mask
    row_bits = 4 * CELL_BITS
    key_low = rows[0] | (rows[1] << row_bits) | (rows[2] << 2 * row_bits)
    return index, key_low, rows[3] | (generation << row_bits)


def _leaf_value(rows, columns, table, placements, late_top):
    """The evaluation's value of a board just after a move (module docstring: the arguments)."""
    if placements is None:
        return board_score(rows, columns, table)
    return network_value(rows, table, placements, late_top)


@overload(_leaf_value, jit_options={"nogil": True})
def _compiled_leaf_value(rows, columns, table, placements, late_top):
    """_leaf_value in compiled code: the evaluation is chosen by the type of `placements` while
    numba compiles (numba cannot drop the other branch when `placements` is an array)."""
    if isinstance(placements, types.NoneType):
        return lambda rows, columns, table, placements, late_top: board_score(rows, columns,
                                                                              table)
    return lambda rows, columns, table, placements, late_top: network_value(rows, table,
                                                                            placements, late_top)


@njit(nogil=True, cache=True)
def _move_points(rows, columns, direction, points):
    """What the move's own points add to its value: the points with the network, else 0."""
    if points is None:
        return 0.0
    return float(slide_points(rows, columns, direction, points))


@njit(nogil=True, cache=True)
def expected_value(rows, columns, depth, probability, cutoff, slides, points, table, placements,
                   late_top, cache_keys, cache_values, state):
    """Value of a board just after the player's move, averaged over the tile that appears next.

    `depth` (at least 1) counts the player moves still to look at; `probability` is the chance of
    reaching this board from the root; `slides` is the slide table (board.slide_table); `points`,
    `table`, `placements` and `late_top` are the evaluation (module docstring). Returns 0 for everything once
    the node limit is passed.
    """
    if state.nodes >= state.node_limit:
        return 0.0
    state.nodes += 1
    index, key_low, key_high = _cache_slot(rows, state.generation, cache_keys.shape[0] - 1)
    if (cache_keys[index, 0] == key_low and cache_keys[index, 1] == key_high
            and cache_values[index, 1] >= depth):
        return cache_values[index, 0]

    empty = empty_count(rows)
    total = 0.0
    for row in range(4):
        for column in range(4):
            if (rows[row] >> (CELL_BITS * column)) & CELL_MASK:
                continue
            for exponent, spawn_probability in SPAWN_ODDS:
                spawned_rows = lines_with_tile(rows, row, column, exponent)
                spawned_columns = lines_with_tile(columns, column, row, exponent)
                child_probability = probability * spawn_probability / empty
                leaf = depth == 1 or child_probability < cutoff
                best = -np.inf
                for direction in range(4):
                    moved_rows, moved_columns = slide(spawned_rows, spawned_columns, direction,
                                                      slides)
                    if moved_rows == spawned_rows:
                        continue
                    if leaf:
                        value = _leaf_value(moved_rows, moved_columns, table, placements,
                                            late_top)
                    else:
                        value = expected_value(moved_rows, moved_columns, depth - 1,
                                               child_probability, cutoff, slides, points, table,
                                               placements, late_top, cache_keys, cache_values,
                                               state)
                    value += _move_points(spawned_rows, spawned_columns, direction, points)
                    best = max(best, value)
                total += spawn_probability * (DEAD if best == -np.inf else best)
    value = total / empty

    cache_keys[index, 0] = key_low
    cache_keys[index, 1] = key_high
    cache_values[index, 0] = value
    cache_values[index, 1] = depth
    return value


@njit(nogil=True, cache=True)
def move_values(rows, depth, cutoff, slides, points, table, placements, late_top, cache_keys,
                cache_values, state):
    """Value of each of the 4 moves from the root (-inf if illegal), `depth` moves ahead.

    `state` is a one-record array of SEARCH_STATE; its node count goes up as the search works.
    """
    search_state = state[0]
    columns = transpose(rows)
    values = np.full(4, -np.inf)
    for direction in range(4):
        moved_rows, moved_columns = slide(rows, columns, direction, slides)
        if moved_rows == rows:
            continue
        if depth == 1:
            value = _leaf_value(moved_rows, moved_columns, table, placements, late_top)
        else:
            value = expected_value(moved_rows, moved_columns, depth - 1, 1.0, cutoff, slides,
                                   points, table, placements, late_top, cache_keys, cache_values,
                                   search_state)
        values[direction] = value + _move_points(rows, columns, direction, points)
    return values
