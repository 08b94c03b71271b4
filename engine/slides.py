"""Where each tile of a board goes when the board is pushed one way, before the new tile: what
a page needs to play a move the moment it is pressed, while the server deals the new tile.

A slide is a function of the board alone, so it tells nothing the player cannot see:

>>> from engine.board import pack
>>> slide = board_slides(pack([[1, 1, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]]))["left"]
>>> slide.destinations[:4], slide.destinations[15], slide.merged
((0, 0, None, None), 12, ((0, 4),))

Both 2s go to the first cell and make a 4 there; the 4 in the last cell goes to the row's
first. Only legal directions have a slide (the board above cannot go up).
"""

from typing import NamedTuple

from engine.board import CELL_BITS, CELL_MASK, Board, LineTable, legal_directions, line_keys
from engine.directions import DIRECTIONS
from engine.line import slide_line
from engine.tiles import LINE_CELLS


class Slide(NamedTuple):
    """One direction's slide: `destinations` holds, for each cell in reading order, the cell its
    tile ends in (None for an empty cell); `merged` the (cell, value) of each tile a merge
    makes, in reading order. Two tiles with the same destination are the pair merging there."""

    destinations: tuple[int | None, ...]
    merged: tuple[tuple[int, int], ...]


class _LineSlide(NamedTuple):
    moves: tuple[tuple[int, int], ...]  # (cell, destination) for each tile of the line
    merged: tuple[tuple[int, int], ...]  # (cell, value) for each tile a merge makes


def _line_table(direction: str, position: int) -> LineTable:
    """For one line of the board pushed in `direction`: its packed content -> its _LineSlide."""
    cells = LINE_CELLS[direction][position]
    shifts = _CELL_SHIFTS[direction]

    def compute(key: int) -> _LineSlide:
        exponents = tuple(key >> shift & CELL_MASK for shift in shifts)
        moves, merged = [], []
        for slot, origin in enumerate(slide_line(exponents).origins):
            for source in origin:
                moves.append((cells[source], cells[slot]))
            if len(origin) == 2:
                merged.append((cells[slot], 2 << exponents[origin[0]]))
        return _LineSlide(tuple(moves), tuple(merged))

    return LineTable(compute)


# Bit offset of each cell of a line, from its packed position at line 0, in travel order.
_CELL_SHIFTS = {
    direction: tuple(CELL_BITS * cell for cell in LINE_CELLS[direction][0])
    for direction in DIRECTIONS
}
_TABLES = {
    direction: tuple(_line_table(direction, position) for position in range(4))
    for direction in DIRECTIONS
}


def slide(board: Board, direction: str) -> Slide:
    """Where each tile of `board` goes when pushed in `direction` (a legal one)."""
    step, mask = line_keys(direction)
    destinations: list[int | None] = [None] * 16
    merged: list[tuple[int, int]] = []
    for position, table in enumerate(_TABLES[direction]):
        line = table.get(board >> step * position & mask)
        for cell, destination in line.moves:
            destinations[cell] = destination
        merged += line.merged
    return Slide(tuple(destinations), tuple(sorted(merged)))


def board_slides(board: Board) -> dict[str, Slide]:
    """The slide of every legal direction of `board`."""
    return {direction: slide(board, direction) for direction in legal_directions(board)}
