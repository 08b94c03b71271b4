"""The late game's boundaries, as the game shows a board (4 rows of tile values): the first
16384, and 16384 with an 8192 beside it (the second chain half built), where the network's late
stages start (engine.solver.ntuple.stage_of); and where the largest tile sits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.solver.ntuple import LATE_EXPONENT, SECOND_CHAIN_EXPONENT

Rows = Sequence[Sequence[int]]
CORNERS = ((0, 0), (0, 3), (3, 0), (3, 3))


@dataclass(frozen=True)
class Boundary:
    """A board is past the boundary when it holds a tile of at least `largest` and, if
    `beside`, a tile of exactly `beside`."""

    name: str
    largest: int
    beside: int | None = None


BOUNDARIES = (
    Boundary("16384", 1 << LATE_EXPONENT),
    Boundary("16384+8192", 1 << LATE_EXPONENT, 1 << SECOND_CHAIN_EXPONENT),
)


def reached(rows: Rows, boundary: Boundary) -> bool:
    """Whether the board is past `boundary`."""
    tiles = {tile for row in rows for tile in row}
    return max(tiles) >= boundary.largest and (boundary.beside is None or boundary.beside in tiles)


def largest_in_corner(rows: Rows) -> bool:
    """Whether a tile of the board's largest value sits in a corner."""
    largest = max(max(row) for row in rows)
    return any(rows[row][column] == largest for row, column in CORNERS)
