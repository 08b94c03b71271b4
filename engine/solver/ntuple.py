"""The learned evaluation: a two-stage n-tuple network, trained by training/trainer.py.

A tuple is six board cells (a "shape"); the network keeps one weight for every combination of
tile exponents those cells can hold (16**6). A board's value is the sum, over the 4 shapes and
each of the board's 8 rotations and reflections, of the weight its cells pick (32 look-ups), so
one table serves all 8 symmetric placements of a shape and a board and its reflections have
the same value. The value estimates the points still to be scored from a board just after a
move. Boards holding 16384 or more are valued by a second set of weights (the second stage),
trained on the late game only.

The network reads a board as 16 four-bit exponents packed in one uint64 (cell 4 * row + column
in bits 4 * cell), so it knows tiles up to 32768. A board holding a larger tile is read with
its tiles downgraded: the tiles above each of its highest missing values are read one step
smaller, once per missing value, until the largest reads as 32768 or no value is missing (a
board holding 65536, 8192 and smaller tiles but no 16384 or 32768 is read with 32768 in place
of 65536: merges still pair the same tiles). Any exponent still above 15 then reads as 15, so
every board up to 131072 has a value.
"""

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from engine.solver.board import CELL_BITS, CELL_MASK

INDEX_BITS = 4  # bits of a cell in the network's board and in a weight index
MAX_CELL_EXPONENT = (1 << INDEX_BITS) - 1  # 32768
STAGE_EXPONENT = 14  # boards holding 16384 or more are valued by the second stage
STAGES = 2

# Cells are numbered 4 * row + column: two rows of three along an edge and one in, and two
# 2x3 blocks (the 4 six-tuples of Szubert and Jaskowski, and of Yeh et al.'s TDL2048).
SHAPES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 3, 4, 5),
    (4, 5, 6, 7, 8, 9),
    (0, 1, 2, 4, 5, 6),
    (4, 5, 6, 8, 9, 10),
)


def placements(shapes: np.ndarray) -> np.ndarray:
    """Each shape in the form `weight_index` reads quickly: (shapes, 4) int64 rows of
    (shift, mask, shift, mask), one pair per run of consecutive cells, such that the shape's
    index on a packed board is ((board >> shift) & mask) | ((board >> shift) & mask). A shape
    must list its cells in increasing order, in at most two runs."""
    rows = []
    for shape in shapes.tolist():
        if sorted(set(shape)) != shape:
            raise ValueError(f"a shape's cells must be in increasing order, not {shape}")
        runs: list[list[int]] = []  # [first cell, cells, first digit of the index]
        for digit, cell in enumerate(shape):
            if runs and runs[-1][0] + runs[-1][1] == cell:
                runs[-1][1] += 1
            else:
                runs.append([cell, 1, digit])
        if len(runs) > 2:
            raise ValueError(f"a shape must be at most two runs of consecutive cells: {shape}")
        row = [0, 0, 0, 0]
        for pair, (cell, cells, digit) in enumerate(runs):
            row[2 * pair] = INDEX_BITS * (cell - digit)
            row[2 * pair + 1] = ((1 << (INDEX_BITS * cells)) - 1) << (INDEX_BITS * digit)
        rows.append(row)
    return np.array(rows, dtype=np.int64)


@dataclass(frozen=True)
class Network:
    """The arrays the compiled evaluation reads: shapes (shapes, cells), weights
    (stages, shapes, 16**cells) and the placements worked out from the shapes.

    The weights are float32 (training) or int16 whole points (the shipped file: 16 bits a
    weight, see weights_file.in_whole_points); the evaluation reads either as a float.
    """

    shapes: np.ndarray
    weights: np.ndarray
    placements: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "placements", placements(self.shapes))


def empty_network(shapes: tuple[tuple[int, ...], ...] = SHAPES) -> Network:
    """A network with every weight 0, to train."""
    shape_array = np.array(shapes, dtype=np.int64)
    size = 1 << (INDEX_BITS * shape_array.shape[1])
    return Network(shape_array, np.zeros((STAGES, len(shapes), size), dtype=np.float32))


@njit(nogil=True, cache=True)
def _skipped_values(rows):
    """Bit mask of the exponents the downgrading rule closes up: the highest ones missing
    below the largest tile, as many as that tile is above MAX_CELL_EXPONENT."""
    present = 0
    for row in range(4):
        for column in range(4):
            present |= 1 << ((rows[row] >> (CELL_BITS * column)) & CELL_MASK)
    top = MAX_CELL_EXPONENT
    while (present >> (top + 1)) != 0:
        top += 1
    skipped, excess, exponent = 0, top - MAX_CELL_EXPONENT, top - 1
    while excess > 0 and exponent >= 1:
        if not (present >> exponent) & 1:
            skipped |= 1 << exponent
            excess -= 1
        exponent -= 1
    return skipped


@njit(nogil=True, cache=True)
def packed_board(rows):
    """The board (4 rows of 5-bit cells) as the network reads it: downgraded, capped, packed
    in a uint64 of 4-bit cells."""
    skipped = _skipped_values(rows)
    board = np.uint64(0)
    for cell in range(16):
        exponent = (rows[cell >> 2] >> (CELL_BITS * (cell & 3))) & CELL_MASK
        below = skipped & ((1 << exponent) - 1)
        while below:  # one step down for each skipped value below this tile
            below &= below - 1
            exponent -= 1
        board |= np.uint64(min(exponent, MAX_CELL_EXPONENT)) << np.uint64(INDEX_BITS * cell)
    return board


@njit(nogil=True, cache=True, inline="always")
def stage_of(board):
    """0, or 1 when the packed board holds a tile of at least 2**STAGE_EXPONENT (16384)."""
    high = (board >> np.uint64(1)) & (board >> np.uint64(2)) & (board >> np.uint64(3))
    return 1 if high & np.uint64(0x1111111111111111) else 0


@njit(nogil=True, cache=True, inline="always")
def _mirrored(board):
    """The board with each row reversed (cell 4 * r + c to 4 * r + 3 - c)."""
    return (((board & np.uint64(0x000F000F000F000F)) << np.uint64(12))
            | ((board & np.uint64(0x00F000F000F000F0)) << np.uint64(4))
            | ((board >> np.uint64(4)) & np.uint64(0x00F000F000F000F0))
            | ((board >> np.uint64(12)) & np.uint64(0x000F000F000F000F)))


@njit(nogil=True, cache=True, inline="always")
def _flipped(board):
    """The board upside down (row r to 3 - r)."""
    return ((board << np.uint64(48))
            | ((board << np.uint64(16)) & np.uint64(0x0000FFFF00000000))
            | ((board >> np.uint64(16)) & np.uint64(0x00000000FFFF0000))
            | (board >> np.uint64(48)))


@njit(nogil=True, cache=True, inline="always")
def transposed(board):
    """Rows become columns (cell 4 * r + c to 4 * c + r)."""
    a1 = board & np.uint64(0xF0F00F0FF0F00F0F)
    a2 = board & np.uint64(0x0000F0F00000F0F0)
    a3 = board & np.uint64(0x0F0F00000F0F0000)
    a = a1 | (a2 << np.uint64(12)) | (a3 >> np.uint64(12))
    b1 = a & np.uint64(0xFF00FF0000FF00FF)
    b2 = a & np.uint64(0x00FF00FF00000000)
    b3 = a & np.uint64(0x00000000FF00FF00)
    return b1 | (b2 >> np.uint64(24)) | (b3 << np.uint64(24))


@njit(nogil=True, cache=True, inline="always")
def images(board):
    """The packed board under its 8 rotations and reflections."""
    turned = transposed(board)
    return (board, _mirrored(board), _flipped(board), _flipped(_mirrored(board)),
            turned, _mirrored(turned), _flipped(turned), _flipped(_mirrored(turned)))


@njit(nogil=True, cache=True, inline="always")
def weight_index(image, placements, shape):
    """The weight index a shape picks on one image of the board: its cells' exponents, first
    cell lowest."""
    bits = np.int64(image)  # the same 64 bits; the masks drop what a signed shift brings in
    return (((bits >> placements[shape, 0]) & placements[shape, 1])
            | ((bits >> placements[shape, 2]) & placements[shape, 3]))


@njit(nogil=True, cache=True)
def board_value(board, weights, placements):
    """The network's value of a packed board: the weights its stage's shapes pick on the
    board's 8 images."""
    stage = stage_of(board) if weights.shape[0] > 1 else 0
    total = 0.0
    for image in images(board):
        for shape in range(placements.shape[0]):
            total += float(weights[stage, shape, weight_index(image, placements, shape)])
    return total


@njit(nogil=True, cache=True)
def network_value(rows, weights, placements):
    """The network's value of a board given as 4 rows of 5-bit cells (board.py)."""
    return board_value(packed_board(rows), weights, placements)
