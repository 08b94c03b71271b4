"""Expectimax search over the 5-bit board, compiled with numba.

The tree alternates the player's move (take the best of the legal moves) and the random tile
(average over every empty cell, a 2 with p=0.9 or a 4 with p=0.1). A branch stops and is scored
by the heuristic when its depth runs out or when its probability falls below the cut-off.
Values of positions already searched are kept in a transposition cache for one root search.
Work is counted in expanded positions: past the node limit the search gives up, the same way
every time.
"""

import numpy as np
from numba import njit

from engine.solver.board import CELL_BITS, CELL_MASK, empty_cells, slide, transpose, with_tile
from engine.solver.heuristic import board_score
from engine.solver.tables import CACHE_BITS

SPAWNS = ((1, 0.9), (2, 0.1))  # (exponent, probability) of a new tile
DEAD = 0.0  # value of a board with no legal move

NODES, NODE_LIMIT, GENERATION = 0, 1, 2  # slots of the counters array


@njit(cache=True)
def _cache_slot(rows, generation):
    """Cache index and the two key words of a board; the generation stamps one root search.

    The arithmetic stays below 2**63, so plain Python computes the same slots.
    """
    mixed = (rows[0] * 0x9E3779B1) ^ (rows[1] * 0x85EBCA77) ^ (rows[2] * 0xC2B2AE3D)
    mixed ^= rows[3] * 0x27D4EB2F
    index = (mixed ^ (mixed >> 21) ^ (mixed >> 42)) & ((1 << CACHE_BITS) - 1)
    row_bits = 4 * CELL_BITS
    key_low = rows[0] | (rows[1] << row_bits) | (rows[2] << 2 * row_bits)
    return index, key_low, rows[3] | (generation << row_bits)


@njit(cache=True)
def expected_value(rows, columns, depth, probability, cutoff, lines, cache_keys, cache_values,
                   counters):
    """Value of a board just after the player's move, averaged over the tile that appears next.

    `depth` (at least 1) counts the player moves still to look at; `probability` is the chance of
    reaching this board from the root. Returns 0 for everything once the node limit is passed.
    """
    toward_first, toward_last, line_scores = lines
    if counters[NODES] >= counters[NODE_LIMIT]:
        return 0.0
    counters[NODES] += 1
    index, key_low, key_high = _cache_slot(rows, counters[GENERATION])
    if (cache_keys[index, 0] == key_low and cache_keys[index, 1] == key_high
            and cache_values[index, 1] >= depth):
        return cache_values[index, 0]

    empty = empty_cells(rows)
    total = 0.0
    for row in range(4):
        for column in range(4):
            if (rows[row] >> (CELL_BITS * column)) & CELL_MASK:
                continue
            for exponent, spawn_probability in SPAWNS:
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
                                               cache_values, counters)
                    best = max(best, value)
                total += spawn_probability * best
    value = total / empty

    cache_keys[index, 0] = key_low
    cache_keys[index, 1] = key_high
    cache_values[index, 0] = value
    cache_values[index, 1] = depth
    return value


@njit(cache=True)
def move_values(rows, depth, cutoff, lines, cache_keys, cache_values, counters):
    """Value of each of the 4 moves from the root (-inf if illegal), `depth` moves ahead."""
    toward_first, toward_last, line_scores = lines
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
                                               lines, cache_keys, cache_values, counters)
    return values
