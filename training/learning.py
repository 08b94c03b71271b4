"""The compiled half of the n-tuple trainer: self-play on a 4-bit bitboard, and the updates.

The board is the network's own (engine/solver/ntuple.py): 16 four-bit exponents in a uint64,
cell 4 * row + column in bits 4 * cell. A move is four look-ups in tables over the 2**16 rows
(uint16 rows and int32 points, 384 KB together, so they stay in the core's cache beside the
weights), made from the solver's slide tables (board.py), so the rules are defined once; up
and down slide the transposed board. Tiles stop at 32768 (two of them would merge into 32768
again, which no game of this trainer comes near).

Each game is played greedily, one move ahead: the move whose points plus the network's value
of the board after it is largest, each board valued by its stage's weights on the board as that
stage reads it (engine/solver/ntuple.py: late stages may read boards down). When it ends, the
boards after each move are updated from the last to the first (TD(0) on afterstates,
backward): each value moves toward the points of the next move plus the value of the board
after it, and the last board's toward 0; a run may let one stage learn and hold the others
still (their values still make the targets). The step is `rate` times the error, shared out
over the weights a board picks (32, or 64 on a late board of a network whose late stages
read 4 shapes more); with temporal coherence (TC) each weight's step is further
scaled by |sum of its errors| / sum of their magnitudes (1 for a weight never updated), so
weights whose errors keep one sign keep learning fast and those that only jitter slow down.

No weight learns past +-32,767, the range the compact weights file keeps in whole points: cut
at the export, the 119 weights (of 67 million) that had grown past it by the tenth run changed
0.5% of one-move-ahead choices alone, so the network learns within the bound instead.

Speed (about twice the moves a second of a loop that read each move's weights as it found
them): the weights are read as one flat table at unsigned positions, TC's two sums beside each
weight (a quarter to a third more moves a second in TC than three arrays); a board's 32 weight
positions (its "features") are worked out for all four moves, and the CPU is asked to fetch
those weights (a prefetch), before any is read, so that many reads of the 268 MB table wait
for memory at once instead of one after another; learning fetches the weights of the board
before the one it is updating in the same way; the small helpers are inlined into the game
loop, since numba passes arrays to a call it does not inline as a struct of many words.

Random numbers come from splitmix64 over a state the caller seeds, so a round of games
depends on its seed and the weights it starts from alone.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from engine.rng import SPAWN_ODDS
from engine.solver.board import CELL_BITS, CELL_MASK, build_slide_tables
from engine.solver.ntuple import (
    INDEX_BITS, MAX_CELL_EXPONENT, images, read_packed, shapes_read, transposed, weight_index,
)
from engine.solver.weights_file import WHOLE_POINTS_LIMIT

ROW_CODES = 1 << (4 * INDEX_BITS)
# The columns of the table a round trains: a weight, then TC's sums of its errors and of their
# magnitudes, side by side so that an update finds all three in one cache line.
WEIGHT, ERRORS, MAGNITUDES = range(3)
IMAGES = 8  # a board's rotations and reflections
FOUR_THRESHOLD = int(dict(SPAWN_ODDS)[2] * 2**32)  # a spawn is a 4 below this 32-bit draw


def row_tables() -> tuple[np.ndarray, np.ndarray]:
    """For every 16-bit row: the rows after sliding toward its first cell (left) and toward its
    last (right), as the two rows of one array, and the points either slide scores."""
    toward_first, toward_last, points = build_slide_tables()
    rows = np.arange(ROW_CODES, dtype=np.int64)
    wide = sum(((rows >> (INDEX_BITS * cell)) & MAX_CELL_EXPONENT) << (CELL_BITS * cell)
               for cell in range(4))

    def narrow(codes: np.ndarray) -> np.ndarray:
        return sum(np.minimum((codes >> (CELL_BITS * cell)) & CELL_MASK, MAX_CELL_EXPONENT)
                   << (INDEX_BITS * cell) for cell in range(4)).astype(np.uint16)

    return (np.stack([narrow(toward_first[wide]), narrow(toward_last[wide])]),
            points[wide].astype(np.int32))


@njit(nogil=True, cache=True, inline="always")
def next_random(state):
    """splitmix64: the next 64-bit draw from a one-element uint64 state array."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(nogil=True, cache=True, inline="always")
def uniform(state):
    """A draw from [0, 1), from the 53 high bits of the next 64-bit draw."""
    return (next_random(state) >> np.uint64(11)) * 2.0**-53


@njit(nogil=True, cache=True, inline="always")
def moved(board, direction, slides, points):
    """The board after a move (0 up, 1 down, 2 left, 3 right; no spawn) and its points."""
    lines = transposed(board) if direction < 2 else board
    way = direction % 2  # the row of `slides`: toward the first cell, or the last
    result = np.uint64(0)
    gained = 0
    for row in range(4):
        shift = np.uint64(16 * row)
        code = (lines >> shift) & np.uint64(0xFFFF)
        result |= np.uint64(slides[way, code]) << shift
        gained += points[code]
    return (transposed(result) if direction < 2 else result), gained


@njit(nogil=True, cache=True, inline="always")
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


@njit(nogil=True, cache=True, inline="always")
def top_exponent(board):
    """The largest exponent on the board."""
    top = 0
    for cell in range(16):
        top = max(top, int((board >> np.uint64(4 * cell)) & np.uint64(15)))
    return top


@njit(nogil=True, cache=True, inline="always")
def find_features(board, placements, stages, late_top, size, features, counts, row):
    """Fill row `row` of `features` with the positions, in flat weights of `stages` stages and
    `size` weights a shape, of the weights the board picks, and `counts[row]` with how many:
    its stage's, each shape the stage reads on each of the images of the board as that stage
    reads it (engine.solver.ntuple). Returns the stage."""
    read, stage = read_packed(board, stages, late_top)
    base = stage * placements.shape[0] * size
    shapes = shapes_read(placements, stage)
    feature = 0
    for image in images(read):
        for shape in range(shapes):
            features[row, feature] = base + shape * size + weight_index(image, placements, shape)
            feature += 1
    counts[row] = feature
    return stage


@intrinsic
def _prefetch(typing_context, array, index):
    """Ask the CPU to bring array[index] into its caches (LLVM's prefetch: for reading, keep
    in every cache level); nothing waits for it."""
    def generate(context, builder, signature, arguments):
        data = context.make_array(signature.args[0])(context, builder, arguments[0]).data
        byte_pointer = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, int32, int32, int32]),
            "llvm.prefetch.p0")
        address = builder.bitcast(builder.gep(data, [arguments[1]]), byte_pointer)
        builder.call(function, [address, int32(0), int32(3), int32(1)])
        return context.get_dummy_value()
    return types.void(array, index), generate


@njit(nogil=True, cache=True, inline="always")
def prefetch_features(table, features, counts, row):
    """Ask for the entries at the positions in row `row` of `features` ahead of reading them."""
    flat = table.reshape(-1)
    for feature in range(counts[row]):
        _prefetch(flat, features[row, feature] * table.shape[1])


@njit(nogil=True, cache=True, inline="always")
def features_value(table, features, counts, row):
    """The sum of the weights at the positions in row `row` of `features`."""
    value = np.float32(0.0)
    for feature in range(counts[row]):
        value += table[features[row, feature], WEIGHT]
    return value


@njit(nogil=True, cache=True, inline="always")
def held(weight):
    """`weight`, held within what the compact weights file keeps (+-WHOLE_POINTS_LIMIT)."""
    return min(max(weight, -WHOLE_POINTS_LIMIT), WHOLE_POINTS_LIMIT)


@njit(nogil=True, cache=True, inline="always")
def learn(features, counts, row, target, table, coherent, rate):
    """Move the value of the board whose features are row `row` of `features` toward
    `target`, no weight past +-WHOLE_POINTS_LIMIT; return its value after the update."""
    error = target - features_value(table, features, counts, row)
    step = rate * error / counts[row]
    for feature in range(counts[row]):
        at = features[row, feature]
        if coherent:
            magnitude = table[at, MAGNITUDES]
            coherence = abs(table[at, ERRORS]) / magnitude if magnitude > 0 else 1.0
            table[at, WEIGHT] = held(table[at, WEIGHT] + step * coherence)
            table[at, ERRORS] += error
            table[at, MAGNITUDES] += abs(error)
        else:
            table[at, WEIGHT] = held(table[at, WEIGHT] + step)
    return features_value(table, features, counts, row)


@njit(nogil=True, cache=True, inline="always")
def greedy_move(board, table, placements, stages, late_top, size, slides, points, afters, gains,
                features, counts):
    """The move one look-ahead picks (the first of equal ones): the board after it, its points
    and its direction; direction -1 when no move is legal. Every legal move's features are
    found, and their weights asked for, before any weight is read."""
    for direction in range(4):
        afters[direction], gains[direction] = moved(board, direction, slides, points)
        if afters[direction] != board:
            find_features(afters[direction], placements, stages, late_top, size, features,
                          counts, direction)
            prefetch_features(table, features, counts, direction)
    best_value, best_direction = np.float32(-np.inf), -1
    for direction in range(4):
        if afters[direction] != board:
            value = gains[direction] + features_value(table, features, counts, direction)
            if value > best_value:
                best_value, best_direction = value, direction
    if best_direction < 0:
        return board, 0, -1
    return afters[best_direction], gains[best_direction], best_direction


@njit(nogil=True, cache=True, inline="always")
def past_boundary(board, exponent, beside):
    """Whether the board holds a tile of 2**exponent or more and, unless `beside` is 0, a tile
    of 2**beside."""
    top = has_beside = False
    for cell in range(16):
        held = (board >> np.uint64(4 * cell)) & np.uint64(15)
        top |= held >= exponent
        has_beside |= held == beside
    return top and (beside == 0 or has_beside)


@njit(nogil=True, cache=True)
def play_round(table, coherent, rate, trace, placements, stages, late_top, learned_stage, slides,
               points, seed, move_budget, path, rewards, outcomes, starts, restart_share,
               restart_exponent, restart_beside, found):
    """Play and learn from games until `move_budget` moves are played (the last game is
    finished) or `outcomes` is full. `table` holds an entry per weight of `stages` stages,
    flat: its weight, and with TC (`coherent`) the weight's sums of errors and of their
    magnitudes beside it. Boards of the late stages are read as `late_top` says
    (engine.solver.ntuple). Only the boards of stage `learned_stage` and the stages after it
    learn; the earlier stages' values stay as they are and still enter the targets of the
    boards before them.

    Each game is learned from backwards once it is over: every afterstate's value moves towards
    its lambda-return, the points of the move after it plus, weighted 1 - `trace`, the next
    afterstate's value (as just learned) and, weighted `trace`, that afterstate's own return
    (TD(lambda) with lambda = `trace`: 0 is TD(0), 1 the points the game actually went on to
    score).

    A game starts from the empty board, or, with probability `restart_share` while `starts`
    holds any, from one of those boards (a restart: late positions that fresh games reach too
    rarely to train on). The first board holding 2**restart_exponent (and 2**restart_beside,
    unless 0) of a game that did not start with them goes into `found`, while it has room.
    Each game's row of `outcomes` is its score, its top exponent and whether it was a restart.
    Returns (games, moves, boards found)."""
    state = np.array([seed], dtype=np.uint64)
    size = table.shape[0] // (stages * placements.shape[0])
    # unsigned: numba checks every read at a signed position for a negative one
    features = np.empty((4, IMAGES * placements.shape[0]), dtype=np.uint64)
    counts = np.zeros(4, dtype=np.int64)  # of each row of `features`
    afters = np.empty(4, dtype=np.uint64)
    gains = np.empty(4, dtype=np.int64)
    games = moves = found_count = 0
    while moves < move_budget and games < outcomes.shape[0]:
        restart = starts.shape[0] > 0 and uniform(state) < restart_share
        if restart:
            board = starts[next_random(state) % np.uint64(starts.shape[0])]
        else:
            board = with_spawn(with_spawn(np.uint64(0), state), state)
        # for its first board past the restart boundary
        watching = not past_boundary(board, restart_exponent, restart_beside)
        length = score = 0
        while length < path.shape[0]:
            best_board, best_points, direction = greedy_move(
                board, table, placements, stages, late_top, size, slides, points, afters, gains,
                features, counts)
            if direction < 0:
                break
            path[length], rewards[length] = best_board, best_points
            length += 1
            score += best_points
            board = with_spawn(best_board, state)
            if watching and past_boundary(board, restart_exponent, restart_beside):
                watching = False
                if found_count < found.shape[0]:
                    found[found_count] = board
                    found_count += 1
        target = 0.0
        stage = earlier_stage = 0
        if length:
            stage = find_features(path[length - 1], placements, stages, late_top, size,
                                  features, counts, (length - 1) % 2)
        for step in range(length - 1, -1, -1):
            if learned_stage > 0 and stage == 0:
                break  # a game's boards before its first 16384 are all of the first stage
            row = step % 2  # this step's features; the one before it goes in the other row
            if step:
                earlier_stage = find_features(path[step - 1], placements, stages, late_top,
                                              size, features, counts, 1 - row)
                prefetch_features(table, features, counts, 1 - row)
            if stage >= learned_stage:
                value = learn(features, counts, row, target, table, coherent, rate)
            else:
                value = features_value(table, features, counts, row)
            target = rewards[step] + (1.0 - trace) * value + trace * target
            stage = earlier_stage
        outcomes[games, 0], outcomes[games, 1], outcomes[games, 2] = (
            score, top_exponent(board), restart)
        games += 1
        moves += length
    return games, moves, found_count
