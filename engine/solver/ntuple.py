"""The learned evaluation: an n-tuple network, trained by bench/train_ntuple.py.

A tuple is a few board cells (a "shape"); the network keeps one weight for every combination
of tile exponents those cells can hold. A board's value is the sum, over every shape and each of
the board's 8 rotations and reflections, of the weight its cells pick, so one table serves all
8 symmetric placements of a shape and the value is the same for a board and its reflections.
The value estimates the points still to be scored from a board just after a move.

A cell indexes the weights by its exponent capped at MAX_CELL_EXPONENT (15, the 32768 tile):
the rule for larger tiles is that 65536 and 131072 read as 32768, so any board up to 131072 has
a value, the largest tiles simply counting as the largest the network knows.
"""

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from engine.solver.board import CELL_BITS, CELL_MASK

INDEX_BITS = 4  # bits of a cell in a weight index
MAX_CELL_EXPONENT = (1 << INDEX_BITS) - 1

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
def _capped_row(row):
    """A row's 4 exponents, each capped at MAX_CELL_EXPONENT, in 4 bits apiece."""
    capped = 0
    for column in range(4):
        exponent = min((row >> (CELL_BITS * column)) & CELL_MASK, MAX_CELL_EXPONENT)
        capped |= exponent << (INDEX_BITS * column)
    return capped


@njit(nogil=True, cache=True)
def capped_rows(rows):
    """The board's rows with every exponent capped (the arithmetic stays below 2**63, so plain
    Python computes the same)."""
    return (_capped_row(rows[0]), _capped_row(rows[1]), _capped_row(rows[2]),
            _capped_row(rows[3]))


@njit(nogil=True, cache=True)
def weight_index(capped, cells):
    """The weight index of one placement: its cells' capped exponents, first cell lowest."""
    index = 0
    for position in range(cells.shape[0]):
        cell = cells[position]
        exponent = (capped[cell >> 2] >> (INDEX_BITS * (cell & 3))) & MAX_CELL_EXPONENT
        index |= exponent << (INDEX_BITS * position)
    return index


@njit(nogil=True, cache=True)
def network_value(rows, weights, placements):
    """The network's value of a board: the weights all placements pick, added up."""
    capped = capped_rows(rows)
    total = 0.0
    for shape in range(placements.shape[0]):
        for symmetry in range(placements.shape[1]):
            total += float(weights[shape, weight_index(capped, placements[shape, symmetry])])
    return total


@njit(nogil=True, cache=True)
def adjust(rows, weights, placements, step):
    """Add `step` to every weight the board picks (one learning update)."""
    capped = capped_rows(rows)
    for shape in range(placements.shape[0]):
        for symmetry in range(placements.shape[1]):
            weights[shape, weight_index(capped, placements[shape, symmetry])] += step
