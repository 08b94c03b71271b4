"""Expectimax search over the 5-bit board, compiled with numba (the GIL is released inside).

The tree alternates the player's move (take the best of the legal moves) and the random tile
(average over every empty cell, each tile value at its odds in engine.rng.SPAWN_ODDS). A branch
stops and is scored by the heuristic when its depth runs out or when its probability falls
below the cut-off. Values of positions already searched are kept in a transposition cache
stamped with the root search's generation, so nothing carries over from one search to the
next. Work is counted in expanded positions: past the node limit the search gives up, the same
way every time.
"""

import numpy as np
from numba import njit

from engine.rng import SPAWN_ODDS
from engine.solver.board import CELL_BITS, CELL_MASK, empty_cells, slide, transpose, with_tile
from engine.solver.heuristic import board_score

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


@njit(nogil=True, cache=True)
def expected_value(rows, columns, depth, probability, cutoff, lines, cache_keys, cache_values,
                   state):
    """Value of a board just after the player's move, averaged over the tile that appears next.

    `depth` (at least 1) counts the player moves still to look at; `probability` is the chance of
    reaching this board from the root. Returns 0 for everything once the node limit is passed.
    """
    toward_first, toward_last, line_scores = lines
    if state.nodes >= state.node_limit:
        return 0.0
    state.nodes += 1
    index, key_low, key_high = _cache_slot(rows, state.generation, cache_keys.shape[0] - 1)
    if (cache_keys[index, 0] == key_low and cache_keys[index, 1] == key_high
            and cache_values[index, 1] >= depth):
        return cache_values[index, 0]

    empty = empty_cells(rows)
    total = 0.0
    for row in range(4):
        for column in range(4):
            if (rows[row] >> (CELL_BITS * column)) & CELL_MASK:
                continue
            for exponent, spawn_probability in SPAWN_ODDS:
                spawned_rows = with_tile(rows, row, column, exponent)
                spawned_columns = with_tile(columns, column, row, exponent)
                child_probability = probability * spawn_probability / empty
                leaf = depth == 1 or child_probability < cutoff
                best = DEAD
                for direction in range(4):
                    moved_rows, moved_columns = slide(spawned_rows, spawned_columns, direction,
                                                      toward_first, toward_last)
                    if moved_rows == spawned_rows:
                        continue
                    if leaf:
                        value = board_score(moved_rows, moved_columns, line_scores)
                    else:
                        value = expected_value(moved_rows, moved_columns, depth - 1,
                                               child_probability, cutoff, lines, cache_keys,
                                               cache_values, state)
                    best = max(best, value)
                total += spawn_probability * best
    value = total / empty

    cache_keys[index, 0] = key_low
    cache_keys[index, 1] = key_high
    cache_values[index, 0] = value
    cache_values[index, 1] = depth
    return value


@njit(nogil=True, cache=True)
def move_values(rows, depth, cutoff, lines, cache_keys, cache_values, state):
    """Value of each of the 4 moves from the root (-inf if illegal), `depth` moves ahead.

    `state` is a one-record array of SEARCH_STATE; its node count goes up as the search works.
    """
    toward_first, toward_last, line_scores = lines
    search_state = state[0]
    columns = transpose(rows)
    values = np.full(4, -np.inf)
    for direction in range(4):
        moved_rows, moved_columns = slide(rows, columns, direction, toward_first, toward_last)
        if moved_rows == rows:
            continue
        if depth == 1:
            values[direction] = board_score(moved_rows, moved_columns, line_scores)
        else:
            values[direction] = expected_value(moved_rows, moved_columns, depth - 1, 1.0, cutoff,
                                               lines, cache_keys, cache_values, search_state)
    return values
