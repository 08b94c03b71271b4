"""The learned evaluation: an n-tuple network, trained by bench/train_ntuple.py.

A tuple is a few board cells (a "shape"); the network keeps one weight for every combination
of tile exponents those cells can hold. A board's value is the sum, over every shape and each of
the board's 8 rotations and reflections, of the weight its cells pick, so one table serves all
8 symmetric placements of a shape and the value is the same for a board and its reflections.
The value estimates the points still to be scored from a board just after a move.

The rule for larger tiles (tile downgrading): training games seldom pass 8192, so a board whose
largest tile is above TRAINED_TOP is read as if the tiles above its highest missing values were
one step smaller, once per missing value, until its largest tile is TRAINED_TOP or no value is
missing. A board holding 16384, 4096 and smaller tiles but no 8192 is read with 8192 in place of
16384: merges still pair the same tiles, and the network sees boards like those it learned
from. Any exponent still above MAX_CELL_EXPONENT (15, the 32768 tile) then reads as 15, so every
board up to 131072 has a value.
"""

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from engine.solver.board import CELL_BITS, CELL_MASK

INDEX_BITS = 4  # bits of a cell in a weight index
MAX_CELL_EXPONENT = (1 << INDEX_BITS) - 1
TRAINED_TOP = 13  # 8192: larger tiles are read one step smaller where the board allows

# Cells are numbered 4 * row + column. No two shapes are symmetric images of each other.
SHAPES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 3, 4),  # the edge row and the cell below its end
    (4, 5, 6, 7, 8),  # the second row and the cell below its end
    (0, 1, 2, 4, 5),  # a corner block
    (4, 5, 6, 8, 9),  # an inner block
    (0, 1, 5, 6, 7),  # a step from the edge row into the second
)


def _symmetries() -> list[list[int]]:
    """The 8 rotations and reflections of the board, each as a map: cell -> cell."""
    maps = []
    for transpose in (False, True):
        for flip_rows in (False, True):
            for flip_columns in (False, True):
                cell_map = []
                for cell in range(16):
                    row, column = divmod(cell, 4)
                    if transpose:
                        row, column = column, row
                    row = 3 - row if flip_rows else row
                    column = 3 - column if flip_columns else column
                    cell_map.append(4 * row + column)
                maps.append(cell_map)
    return maps


def placements(shapes: np.ndarray) -> np.ndarray:
    """Cells of every shape under each symmetry: (shapes, 8, cells of a shape), int64."""
    maps = _symmetries()
    return np.array([[[cell_map[cell] for cell in shape] for cell_map in maps]
                     for shape in shapes.tolist()], dtype=np.int64)


@dataclass(frozen=True)
class Network:
    """The arrays the compiled evaluation reads: shapes (shapes, cells), weights
    (shapes, 16**cells, float32) and the placements worked out from the shapes."""

    shapes: np.ndarray
    weights: np.ndarray
    placements: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "placements", placements(self.shapes))


def empty_network(shapes: tuple[tuple[int, ...], ...] = SHAPES) -> Network:
    """A network with every weight 0, to train."""
    shape_array = np.array(shapes, dtype=np.int64)
    size = 1 << (INDEX_BITS * shape_array.shape[1])
    return Network(shape_array, np.zeros((len(shapes), size), dtype=np.float32))


@njit(nogil=True, cache=True)
def _skipped_values(rows):
    """Bit mask of the exponents the downgrading rule closes up: the highest ones missing
    below the largest tile, as many as that tile is above TRAINED_TOP."""
    present = 0
    for row in range(4):
        for column in range(4):
            present |= 1 << ((rows[row] >> (CELL_BITS * column)) & CELL_MASK)
    top = TRAINED_TOP
    while (present >> (top + 1)) != 0:
        top += 1
    skipped, excess, exponent = 0, top - TRAINED_TOP, top - 1
    while excess > 0 and exponent >= 1:
        if not (present >> exponent) & 1:
            skipped |= 1 << exponent
            excess -= 1
        exponent -= 1
    return skipped


@njit(nogil=True, cache=True)
def _read_row(row, skipped):
    """A row's 4 exponents as the network reads them (downgraded, capped), 4 bits apiece."""
    read = 0
    for column in range(4):
        exponent = (row >> (CELL_BITS * column)) & CELL_MASK
        below = skipped & ((1 << exponent) - 1)
        while below:  # one step down for each skipped value below this tile
            below &= below - 1
            exponent -= 1
        read |= min(exponent, MAX_CELL_EXPONENT) << (INDEX_BITS * column)
    return read


@njit(nogil=True, cache=True)
def read_rows(rows):
    """The board's rows as the network reads them (the arithmetic stays below 2**63, so plain
    Python computes the same)."""
    skipped = _skipped_values(rows)
    return (_read_row(rows[0], skipped), _read_row(rows[1], skipped),
            _read_row(rows[2], skipped), _read_row(rows[3], skipped))


@njit(nogil=True, cache=True)
def weight_index(read, cells):
    """The weight index of one placement: its cells' exponents as read, first cell lowest."""
    index = 0
    for position in range(cells.shape[0]):
        cell = cells[position]
        exponent = (read[cell >> 2] >> (INDEX_BITS * (cell & 3))) & MAX_CELL_EXPONENT
        index |= exponent << (INDEX_BITS * position)
    return index


@njit(nogil=True, cache=True)
def network_value(rows, weights, placements):
    """The network's value of a board: the weights all placements pick, added up."""
    read = read_rows(rows)
    total = 0.0
    for shape in range(placements.shape[0]):
        for symmetry in range(placements.shape[1]):
            total += float(weights[shape, weight_index(read, placements[shape, symmetry])])
    return total


@njit(nogil=True, cache=True)
def adjust(rows, weights, placements, step):
    """Add `step` to every weight the board picks (one learning update)."""
    read = read_rows(rows)
    for shape in range(placements.shape[0]):
        for symmetry in range(placements.shape[1]):
            weights[shape, weight_index(read, placements[shape, symmetry])] += step
