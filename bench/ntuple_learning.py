"""The compiled half of the n-tuple trainer: self-play on a 4-bit bitboard, and the updates.

The board is the network's own (engine/solver/ntuple.py): 16 four-bit exponents in a uint64,
cell 4 * row + column in bits 4 * cell. A move is four look-ups in tables over the 2**16 rows,
made from the solver's slide tables (board.py), so the rules are defined once; up and down
slide the transposed board. Tiles stop at 32768 (two of them would merge into 32768 again,
which no game of this trainer comes near).

Each game is played greedily, one move ahead: the move whose points plus the network's value
of the board after it is largest. When it ends, the boards after each move are updated from
the last to the first (TD(0) on afterstates, backward): each value moves toward the points of
the next move plus the value of the board after it, and the last board's toward 0. The step
is `rate` times the error, shared out over the 32 weights a board picks; with temporal
coherence (TC) each weight's step is further scaled by |sum of its errors| / sum of their
magnitudes (1 for a weight never updated), so weights whose errors keep one sign keep
learning fast and those that only jitter slow down.

Random numbers come from splitmix64 over a state the caller seeds, so a round of games
depends on its seed and the weights it starts from alone.
"""

import numpy as np
from numba import njit

from engine.rng import SPAWN_ODDS
from engine.solver.board import CELL_BITS, CELL_MASK, build_slide_tables
from engine.solver.ntuple import (
    INDEX_BITS, MAX_CELL_EXPONENT, board_value, images, stage_of, transposed, weight_index,
)

ROW_CODES = 1 << (4 * INDEX_BITS)
FOUR_THRESHOLD = int(dict(SPAWN_ODDS)[2] * 2**32)  # a spawn is a 4 below this 32-bit draw


def row_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every 16-bit row: the row after sliding toward its first cell (left), toward its
    last (right), and the points either slide scores."""
    toward_first, toward_last, points = build_slide_tables()
    rows = np.arange(ROW_CODES, dtype=np.int64)
    wide = sum(((rows >> (INDEX_BITS * cell)) & MAX_CELL_EXPONENT) << (CELL_BITS * cell)
               for cell in range(4))

    def narrow(codes: np.ndarray) -> np.ndarray:
        return sum(np.minimum((codes >> (CELL_BITS * cell)) & CELL_MASK, MAX_CELL_EXPONENT)
                   << (INDEX_BITS * cell) for cell in range(4)).astype(np.uint64)

    return narrow(toward_first[wide]), narrow(toward_last[wide]), points[wide].astype(np.int64)


@njit(nogil=True, cache=True)
def next_random(state):
    """splitmix64: the next 64-bit draw from a one-element uint64 state array."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(nogil=True, cache=True)
def slid_rows(board, table, points):
    """Every row of the board looked up in a row table, and the points of the slide."""
    result = np.uint64(0)
    gained = 0
    for row in range(4):
        shift = np.uint64(16 * row)
        code = (board >> shift) & np.uint64(0xFFFF)
        result |= table[code] << shift
        gained += points[code]
    return result, gained


@njit(nogil=True, cache=True)
def moved(board, direction, left, right, points):
    """The board after a move (0 up, 1 down, 2 left, 3 right; no spawn) and its points."""
    if direction >= 2:
        return slid_rows(board, left if direction == 2 else right, points)
    columns, gained = slid_rows(transposed(board), left if direction == 0 else right, points)
    return transposed(columns), gained


@njit(nogil=True, cache=True)
def with_spawn(board, state):
    """The board with a 2 (or a 4, one time in ten) in a random empty cell."""
    empty = 0
    for cell in range(16):
        if (board >> np.uint64(4 * cell)) & np.uint64(15) == 0:
            empty += 1
    draw = next_random(state)
    pick = int((draw >> np.uint64(32)) % np.uint64(empty))
    exponent = 2 if (draw & np.uint64(0xFFFFFFFF)) < FOUR_THRESHOLD else 1
    for cell in range(16):
        if (board >> np.uint64(4 * cell)) & np.uint64(15) == 0:
            if pick == 0:
                return board | (np.uint64(exponent) << np.uint64(4 * cell))
            pick -= 1
    return board


@njit(nogil=True, cache=True)
def top_exponent(board):
    """The largest exponent on the board."""
    top = 0
    for cell in range(16):
        top = max(top, int((board >> np.uint64(4 * cell)) & np.uint64(15)))
    return top


@njit(nogil=True, cache=True)
def learn(board, target, weights, errors, magnitudes, coherent, rate, placements, indices):
    """Move the board's value toward `target`; return its value after the update."""
    stage = stage_of(board) if weights.shape[0] > 1 else 0
    shapes = placements.shape[0]
    value, feature = 0.0, 0
    for image in images(board):
        for shape in range(shapes):
            indices[feature] = weight_index(image, placements, shape)
            value += weights[stage, shape, indices[feature]]
            feature += 1
    error = target - value
    step = rate * error / indices.shape[0]
    for feature in range(indices.shape[0]):
        shape, index = feature % shapes, indices[feature]
        if coherent:
            magnitude = magnitudes[stage, shape, index]
            coherence = abs(errors[stage, shape, index]) / magnitude if magnitude > 0 else 1.0
            weights[stage, shape, index] += step * coherence
            errors[stage, shape, index] += error
            magnitudes[stage, shape, index] += abs(error)
        else:
            weights[stage, shape, index] += step
    value = 0.0
    for feature in range(indices.shape[0]):
        value += weights[stage, feature % shapes, indices[feature]]
    return value


@njit(nogil=True, cache=True)
def greedy_move(board, weights, placements, left, right, points):
    """The move one look-ahead picks (the first of equal ones): the board after it, its points
    and its direction; direction -1 when no move is legal."""
    best_value, best_board, best_points, best_direction = -np.inf, board, 0, -1
    for direction in range(4):
        after, gained = moved(board, direction, left, right, points)
        if after == board:
            continue
        value = gained + board_value(after, weights, placements)
        if value > best_value:
            best_value, best_board, best_points, best_direction = value, after, gained, direction
    return best_board, best_points, best_direction


@njit(nogil=True, cache=True)
def play_round(weights, errors, magnitudes, coherent, rate, placements, left, right, points,
               seed, move_budget, path, rewards, scores, tops):
    """Play and learn from games until `move_budget` moves are played (the last game is
    finished) or `scores` is full. Fills scores and top exponents; returns (games, moves)."""
    state = np.array([seed], dtype=np.uint64)
    indices = np.empty(8 * placements.shape[0], dtype=np.int64)
    games = moves = 0
    while moves < move_budget and games < scores.shape[0]:
        board = with_spawn(with_spawn(np.uint64(0), state), state)
        length = score = 0
        while length < path.shape[0]:
            best_board, best_points, direction = greedy_move(board, weights, placements, left,
                                                             right, points)
            if direction < 0:
                break
            path[length], rewards[length] = best_board, best_points
            length += 1
            score += best_points
            board = with_spawn(best_board, state)
        target = 0.0
        for step in range(length - 1, -1, -1):
            target = rewards[step] + learn(path[step], target, weights, errors, magnitudes,
                                           coherent, rate, placements, indices)
        scores[games], tops[games] = score, top_exponent(board)
        games += 1
        moves += length
    return games, moves
