"""The search's board: 4 rows of 4 cells, 5 bits per cell, and the moves on it.

A cell holds a tile's exponent (0 empty, 1 for 2, ..., 17 for 131072), so every tile a 4x4 game
can make fits exactly; a 4-bit cell would stop at 32768. A row (or column) is a 20-bit "line
code" with its first cell in the low bits; a board is a tuple of 4 row codes, top row first.
Slides use two tables over all 2**20 line codes, built with numpy (and kept, see tables.py) and
read as the two rows of one array: the compiled search runs about twice as fast as when it
picks one of two separate arrays at each slide (bench/solver_kernel.py).
"""

import numpy as np
from numba import njit

CELL_BITS = 5
CELL_MASK = (1 << CELL_BITS) - 1
LINE_CODES = 1 << (4 * CELL_BITS)

# Direction indices, in the order of engine.DIRECTIONS.
UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
# The rows of the slide table: lines slid toward their first cell, and toward their last.
TOWARD_FIRST, TOWARD_LAST = 0, 1


def line_cells(codes: np.ndarray) -> np.ndarray:
    """The 4 exponents of each line code, as an (n, 4) array, first cell first."""
    return np.stack([(codes >> (CELL_BITS * i)) & CELL_MASK for i in range(4)], axis=1)


def line_codes(cells: np.ndarray) -> np.ndarray:
    """Inverse of line_cells."""
    return sum(cells[:, i].astype(np.int64) << (CELL_BITS * i) for i in range(4))


def _slide_toward_first(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Slide every line toward cell 0, merging each equal pair once, nearest the edge first.

    Returns the lines' new cells and the points each slide scores (the merged tiles' values).
    """
    count = len(cells)
    result = np.zeros_like(cells)
    points = np.zeros(count, dtype=np.int64)
    waiting = np.zeros(count, dtype=cells.dtype)  # tile that may still merge with the next one
    write_at = np.zeros(count, dtype=np.int64)
    lines = np.arange(count)
    for i in range(4):
        tile = cells[:, i]
        present = tile != 0
        merges = present & (waiting == tile) & (tile < CELL_MASK)
        settles = present & (waiting != 0) & ~merges
        result[lines[merges], write_at[merges]] = tile[merges] + 1
        points += np.where(merges, np.int64(1) << (tile.astype(np.int64) + 1), 0)
        result[lines[settles], write_at[settles]] = waiting[settles]
        write_at += merges | settles
        waiting = np.where(merges, 0, np.where(present, tile, waiting))
    left_over = waiting != 0
    result[lines[left_over], write_at[left_over]] = waiting[left_over]
    return result, points


def build_slide_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every line code: the code after sliding toward the first cell, after sliding toward
    the last, and the points either slide scores."""
    cells = line_cells(np.arange(LINE_CODES, dtype=np.int64))
    slid_first, points = _slide_toward_first(cells)
    slid_last, _ = _slide_toward_first(cells[:, ::-1])
    return line_codes(slid_first), line_codes(slid_last[:, ::-1]), points


def slide_table(toward_first: np.ndarray, toward_last: np.ndarray) -> np.ndarray:
    """The two slide tables as the rows TOWARD_FIRST and TOWARD_LAST of one array."""
    return np.stack((toward_first, toward_last))


@njit(nogil=True, cache=True)
def transpose(board):
    """Rows become columns: column c of the result's row code is row c of the board."""
    c0 = c1 = c2 = c3 = 0
    for r in range(4):
        row = board[r]
        shift = CELL_BITS * r
        c0 |= (row & CELL_MASK) << shift
        c1 |= ((row >> CELL_BITS) & CELL_MASK) << shift
        c2 |= ((row >> (2 * CELL_BITS)) & CELL_MASK) << shift
        c3 |= ((row >> (3 * CELL_BITS)) & CELL_MASK) << shift
    return (c0, c1, c2, c3)


@njit(nogil=True, cache=True)
def _slide_lines(lines, slides, way):
    """Each of the 4 lines looked up in one row (TOWARD_FIRST or TOWARD_LAST) of `slides`."""
    return (slides[way, lines[0]], slides[way, lines[1]], slides[way, lines[2]],
            slides[way, lines[3]])


@njit(nogil=True, cache=True)
def slide(rows, columns, direction, slides):
    """Rows and columns after sliding (no spawn); unchanged rows mean an illegal move.

    `slides` is the slide table (slide_table).
    The board is carried both ways round so that each slide needs one transpose only.
    """
    if direction == LEFT or direction == RIGHT:
        way = TOWARD_FIRST if direction == LEFT else TOWARD_LAST
        new_rows = _slide_lines(rows, slides, way)
        return new_rows, transpose(new_rows)
    way = TOWARD_FIRST if direction == UP else TOWARD_LAST
    new_columns = _slide_lines(columns, slides, way)
    return transpose(new_columns), new_columns


@njit(nogil=True, cache=True)
def slide_points(rows, columns, direction, points):
    """Points scored by sliding the board in `direction` (legal or not)."""
    lines = rows if direction == LEFT or direction == RIGHT else columns
    return points[lines[0]] + points[lines[1]] + points[lines[2]] + points[lines[3]]


@njit(nogil=True, cache=True)
def empty_count(board):
    """How many cells are empty."""
    count = 0
    for r in range(4):
        for c in range(4):
            if (board[r] >> (CELL_BITS * c)) & CELL_MASK == 0:
                count += 1
    return count


@njit(nogil=True, cache=True)
def lines_with_tile(lines, line, cell, exponent):
    """Rows (or columns) with `exponent` placed in an empty cell of one of them."""
    added = exponent << (CELL_BITS * cell)
    return (
        lines[0] | added if line == 0 else lines[0],
        lines[1] | added if line == 1 else lines[1],
        lines[2] | added if line == 2 else lines[2],
        lines[3] | added if line == 3 else lines[3],
    )


def encode(exponent_rows: tuple[tuple[int, ...], ...]) -> tuple[int, int, int, int]:
    """Board from 4 rows of 4 exponents."""
    return tuple(
        sum(exponent << (CELL_BITS * c) for c, exponent in enumerate(row)) for row in exponent_rows
    )


def decode(board: tuple[int, int, int, int]) -> list[list[int]]:
    """4 rows of 4 exponents from a board."""
    return [[(row >> (CELL_BITS * c)) & CELL_MASK for c in range(4)] for row in board]
