"""The learned evaluation: a staged n-tuple network, trained by training/trainer.py.

A tuple is six board cells (a "shape"); the network keeps one weight for every combination of
tile exponents those cells can hold (16**6). A board's value is the sum, over the 4 shapes and
each of the board's 8 rotations and reflections, of the weight its cells pick (32 look-ups), so
one table serves all 8 symmetric placements of a shape and a board and its reflections have
the same value. The value estimates the points still to be scored from a board just after a
move.

Stages: each stage has weights of its own. Boards below 16384 are the first stage's; boards
holding 16384 or more the second's; with a third stage, boards holding 16384 or more and an
8192 beside it (the second chain half built) are the third's (`stage_of`). A late stage may
read its boards down (`late_top`): tiles above each of the board's highest missing values are
read one step smaller, once per missing value, until the largest reads as 2**late_top or no
value is missing. Read down to 8192 (late_top 13), a board holding 16384, 4096 and 2048 but no
8192 reads as 8192, 4096, 2048: the chain a first-stage board has, so a late stage copied from
the first starts out playing its boards the way the first stage plays its own.

A network may give its late stages more shapes than the first (larger tuples where the games
die): each shape is read from a stage on (`first_stages`, 0 for the shapes every stage reads),
the shapes read from a later stage listed after the others, and a stage keeps zeros in the
places of the shapes it does not read (never read, nor kept in its weights file). A late
shape added to a trained network starts at 0, so the network values every board as before.

The network reads a board as 16 four-bit exponents packed in one uint64 (cell 4 * row + column
in bits 4 * cell), so it knows tiles up to 32768. Every stage reads a board holding a larger
tile down by the same rule until its largest reads as 32768 (a board holding 65536, 8192 and
smaller tiles but no 16384 or 32768 is read with 32768 in place of 65536: merges still pair the
same tiles); any exponent still above 15 then reads as 15, so every board up to 131072 has a
value.
"""

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from engine.solver.board import CELL_BITS, CELL_MASK

INDEX_BITS = 4  # bits of a cell in the network's board and in a weight index
MAX_CELL_EXPONENT = (1 << INDEX_BITS) - 1  # 32768
LATE_EXPONENT = 14  # boards holding 16384 or more are valued by the late stages
SECOND_CHAIN_EXPONENT = 13  # with 16384, an 8192 starts the third stage's boards
STAGES = 2  # a new network's
MOST_STAGES = 3
READ_DOWN_TOP = SECOND_CHAIN_EXPONENT  # late boards read down so that their largest is 8192

# Cells are numbered 4 * row + column: two rows of three along an edge and one in, and two
# 2x3 blocks (the 4 six-tuples of Szubert and Jaskowski, and of Yeh et al.'s TDL2048).
SHAPES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 3, 4, 5),
    (4, 5, 6, 7, 8, 9),
    (0, 1, 2, 4, 5, 6),
    (4, 5, 6, 8, 9, 10),
)
# Four more a network may give its late stages alone (`first_stages` 1): the chain along the
# edge turning back along the next row (a snake's first six), a staircase, two edge cells over
# the next row, and the snake one row in.
LATE_SHAPES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 3, 6, 7),
    (0, 1, 2, 5, 6, 7),
    (0, 1, 4, 5, 6, 7),
    (4, 5, 6, 7, 10, 11),
)
FIRST_STAGE = 4  # the column of a shape's placement row holding the first stage that reads it


def placements(shapes: np.ndarray, first_stages: np.ndarray | None = None) -> np.ndarray:
    """Each shape in the form the evaluation reads quickly: (shapes, 5) int64 rows of
    (shift, mask, shift, mask, first stage), one (shift, mask) pair per run of consecutive
    cells, such that the shape's index on a packed board is
    ((board >> shift) & mask) | ((board >> shift) & mask) (`weight_index`), and the first
    stage that reads the shape (`first_stages`, 0 for all if None). A shape must list its cells
    in increasing order, in at most two runs; shapes read from a later stage come after the
    others."""
    first = np.zeros(len(shapes), np.int64) if first_stages is None else np.asarray(
        first_stages, np.int64)
    if first.shape != (len(shapes),) or (first < 0).any() or (np.diff(first) < 0).any():
        raise ValueError(f"first stages must be one for each shape, from 0 and never "
                         f"decreasing, not {first.tolist()}")
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
        row = [0, 0, 0, 0, 0]
        for pair, (cell, cells, digit) in enumerate(runs):
            row[2 * pair] = INDEX_BITS * (cell - digit)
            row[2 * pair + 1] = ((1 << (INDEX_BITS * cells)) - 1) << (INDEX_BITS * digit)
        rows.append(row)
    table = np.array(rows, dtype=np.int64).reshape(-1, 5)
    table[:, FIRST_STAGE] = first
    return table


@dataclass(frozen=True)
class Network:
    """The arrays the compiled evaluation reads: shapes (shapes, cells), weights
    (stages, shapes, 16**cells) and the placements worked out from the shapes and the first
    stage that reads each (`first_stages`, None: every stage reads every shape); `late_top`,
    the largest exponent the late stages read a board with (MAX_CELL_EXPONENT: as it is).

    The weights are float32 (training) or int16 whole points (the shipped file: 16 bits a
    weight, see weights_file.in_whole_points); the evaluation reads either as a float.
    """

    shapes: np.ndarray
    weights: np.ndarray
    late_top: int = MAX_CELL_EXPONENT
    first_stages: np.ndarray | None = None
    placements: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "placements", placements(self.shapes, self.first_stages))
        object.__setattr__(self, "first_stages", self.placements[:, FIRST_STAGE].copy())


def empty_network(shapes: tuple[tuple[int, ...], ...] = SHAPES, stages: int = STAGES,
                  late_top: int = MAX_CELL_EXPONENT,
                  first_stages: tuple[int, ...] | None = None) -> Network:
    """A network with every weight 0, to train."""
    shape_array = np.array(shapes, dtype=np.int64)
    size = 1 << (INDEX_BITS * shape_array.shape[1])
    return Network(shape_array, np.zeros((stages, len(shapes), size), dtype=np.float32),
                   late_top, None if first_stages is None else np.array(first_stages))


@njit(nogil=True, cache=True, inline="always")
def _stage(present, stages):
    """The stage of a board holding the exponents in the bit mask `present`, in a network of
    `stages` stages (the last stage takes the boards of any stage beyond it)."""
    if present >> LATE_EXPONENT == 0 or stages == 1:
        return 0
    if stages > 2 and (present >> SECOND_CHAIN_EXPONENT) & 1:
        return 2
    return 1


@njit(nogil=True, cache=True, inline="always")
def _skipped_values(present, top):
    """Bit mask of the exponents the reading-down rule closes up on a board holding the
    exponents in `present`: its highest ones missing below its largest tile, as many as that
    tile is above 2**top."""
    largest = top
    while present >> (largest + 1):
        largest += 1
    skipped, excess, exponent = 0, largest - top, largest - 1
    while excess > 0 and exponent >= 1:
        if not (present >> exponent) & 1:
            skipped |= 1 << exponent
            excess -= 1
        exponent -= 1
    return skipped


@njit(nogil=True, cache=True, inline="always")
def _read_down(exponent, skipped):
    """An exponent read one step smaller for each skipped value below it, then capped."""
    below = skipped & ((1 << exponent) - 1)
    while below:
        below &= below - 1
        exponent -= 1
    return min(exponent, MAX_CELL_EXPONENT)


@njit(nogil=True, cache=True)
def read_rows(rows, stages, late_top):
    """The board (4 rows of 5-bit cells) as a network of `stages` stages reads it: its stage,
    and its cells read down (module docstring) and packed in a uint64 of 4-bit cells."""
    present = 0
    for row in range(4):
        for column in range(4):
            present |= 1 << ((rows[row] >> (CELL_BITS * column)) & CELL_MASK)
    stage = _stage(present, stages)
    skipped = _skipped_values(present, late_top if stage else MAX_CELL_EXPONENT)
    board = np.uint64(0)
    for cell in range(16):
        exponent = (rows[cell >> 2] >> (CELL_BITS * (cell & 3))) & CELL_MASK
        board |= np.uint64(_read_down(exponent, skipped)) << np.uint64(INDEX_BITS * cell)
    return board, stage


@njit(nogil=True, cache=True, inline="always")
def read_packed(board, stages, late_top):
    """A packed board (tiles up to 32768) as a network of `stages` stages reads it: its stage
    and the board read down. Boards below 16384 (most of a game's) are told by a few shifts."""
    high = (board >> np.uint64(1)) & (board >> np.uint64(2)) & (board >> np.uint64(3))
    if stages == 1 or not high & np.uint64(0x1111111111111111):
        return board, 0
    present = 0
    for cell in range(16):
        present |= 1 << int((board >> np.uint64(INDEX_BITS * cell)) & np.uint64(15))
    stage = _stage(present, stages)
    skipped = _skipped_values(present, late_top)
    if not skipped:
        return board, stage
    read = np.uint64(0)
    for cell in range(16):
        exponent = int((board >> np.uint64(INDEX_BITS * cell)) & np.uint64(15))
        read |= np.uint64(_read_down(exponent, skipped)) << np.uint64(INDEX_BITS * cell)
    return read, stage


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


@njit(nogil=True, cache=True, inline="always")
def shapes_read(placements, stage):
    """How many shapes (the first ones) `stage` reads."""
    read = 0
    while read < placements.shape[0] and placements[read, FIRST_STAGE] <= stage:
        read += 1
    return read


@njit(nogil=True, cache=True, inline="always")
def _stage_value(board, stage, weights, placements):
    """The sum of the weights of `stage` that its shapes pick on the board's 8 images."""
    total = 0.0
    read = shapes_read(placements, stage)
    for image in images(board):
        for shape in range(read):
            total += float(weights[stage, shape, weight_index(image, placements, shape)])
    return total


@njit(nogil=True, cache=True)
def board_value(board, weights, placements, late_top):
    """The network's value of a packed board (tiles up to 32768)."""
    read, stage = read_packed(board, weights.shape[0], late_top)
    return _stage_value(read, stage, weights, placements)


@njit(nogil=True, cache=True)
def network_value(rows, weights, placements, late_top):
    """The network's value of a board given as 4 rows of 5-bit cells (board.py)."""
    board, stage = read_rows(rows, weights.shape[0], late_top)
    return _stage_value(board, stage, weights, placements)
