"""The packed board: 16 cells of 5 bits in one Python int, moved through cached line tables.

Cell (row, col) holds the exponent of its tile (0 = empty, n = a tile of value 2**n) at bit
5 * (4 * row + col), so row r is the 20-bit line at bit 20 * r, slot s of a line at bit 5 * s.
Five bits hold exponents up to 31, so tiles stay exact far beyond 131072 = 2**17.

A column is read in place: `board >> 5 * c & COLUMN_MASK` keeps the four cells of column c at
bits 0, 20, 40, 60, and that int is itself the key of the column tables. A move is four table
look-ups added up: each entry holds its line's new cells already in place plus the points
above the board's 80 bits. Each table fills itself lazily the first time a row or column is
seen, so only the lines a game actually meets are ever computed.
"""

from collections.abc import Callable, Iterable
from typing import Any

from engine.directions import DIRECTIONS
from engine.line import slide_line

CELL_BITS = 5
LINE_BITS = 20
CELL_MASK = (1 << CELL_BITS) - 1
ROW_MASK = (1 << LINE_BITS) - 1  # row 0 of a board
COLUMN_MASK = sum(CELL_MASK << (LINE_BITS * row) for row in range(4))  # column 0
BOARD_BITS = 16 * CELL_BITS
BOARD_MASK = (1 << BOARD_BITS) - 1

Board = int
MoveResult = tuple[Board, int]


class LineTable:
    """Values for rows or columns, worked out on first use.

    Hot paths read `entries` (a plain dict, the fastest look-up there is) inside
    `try ... except KeyError` and fall back on `get`, which fills the missing entry.
    """

    __slots__ = ("entries", "_compute")

    def __init__(self, compute: Callable[[int], Any]) -> None:
        self.entries: dict[int, Any] = {}
        self._compute = compute

    def get(self, key: int) -> Any:
        try:
            return self.entries[key]
        except KeyError:
            value = self.entries[key] = self._compute(key)
            return value


def row_exponents(row: int) -> tuple[int, int, int, int]:
    """The four exponents of a 20-bit row, column 0 first."""
    return (row & CELL_MASK, row >> 5 & CELL_MASK, row >> 10 & CELL_MASK, row >> 15 & CELL_MASK)


def pack_row(exponents: Iterable[int]) -> int:
    """Pack four exponents, column 0 first, into a 20-bit row."""
    return sum(exponent << (CELL_BITS * slot) for slot, exponent in enumerate(exponents))


def column_exponents(column: int) -> tuple[int, int, int, int]:
    """The four exponents of a column (cells at bits 0, 20, 40, 60), row 0 first."""
    return (
        column & CELL_MASK,
        column >> 20 & CELL_MASK,
        column >> 40 & CELL_MASK,
        column >> 60 & CELL_MASK,
    )


def pack_column(exponents: Iterable[int]) -> int:
    """Pack four exponents, row 0 first, into a column (cells at bits 0, 20, 40, 60)."""
    return sum(exponent << (LINE_BITS * row) for row, exponent in enumerate(exponents))


def _slide(exponents: tuple[int, ...], toward_last: bool) -> tuple[tuple[int, ...], int]:
    """Slide a line toward slot 0 (left, up) or toward slot 3 (right, down): (exponents, points)."""
    if toward_last:
        new_exponents, points, _ = slide_line(exponents[::-1])
        return new_exponents[::-1], points
    new_exponents, points, _ = slide_line(exponents)
    return new_exponents, points


def _changes(exponents: tuple[int, ...]) -> int:
    """Bit 0: sliding toward slot 0 changes the line; bit 1: sliding toward slot 3 does."""
    toward_first = _slide(exponents, False)[0] != exponents
    toward_last = _slide(exponents, True)[0] != exponents
    return toward_first | toward_last << 1


_ROW_CHANGES = LineTable(lambda row: _changes(row_exponents(row)))
_COLUMN_CHANGES = LineTable(lambda column: _changes(column_exponents(column)))
_ROW_ENTRIES, _COLUMN_ENTRIES = _ROW_CHANGES.entries, _COLUMN_CHANGES.entries
_EMPTY_CELLS_BY_ROW = tuple(
    LineTable(
        lambda line, row=row: tuple(
            4 * row + slot for slot, exponent in enumerate(row_exponents(line)) if not exponent
        )
    )
    for row in range(4)
)
_EMPTY_0, _EMPTY_1, _EMPTY_2, _EMPTY_3 = (table.entries for table in _EMPTY_CELLS_BY_ROW)

# How a direction reads the board: (exponents of a line's key, packing them back,
# bits from one line's key to the next, mask of the first line's key, tiles go toward slot 3).
_LINES = {
    "up": (column_exponents, pack_column, 5, COLUMN_MASK, False),
    "down": (column_exponents, pack_column, 5, COLUMN_MASK, True),
    "left": (row_exponents, pack_row, LINE_BITS, ROW_MASK, False),
    "right": (row_exponents, pack_row, LINE_BITS, ROW_MASK, True),
}


def line_move(direction: str, position: int) -> Callable[[int], int]:
    """For line `position` of a board pushed in `direction`: key -> the line's new cells, already
    at their place in the board, plus the points scored shifted above the board's bits.
    The sum of the four lines' values is the move: its board is `sum & BOARD_MASK`, its
    points `sum >> BOARD_BITS`."""
    read, write, step, _, toward_last = _LINES[direction]

    def compute(key: int) -> int:
        new_exponents, points = _slide(read(key), toward_last)
        return write(new_exponents) << (step * position) | points << BOARD_BITS

    return compute


def line_keys(direction: str) -> tuple[int, int]:
    """(bits from one line's key to the next, mask of the first line's key) for `direction`."""
    _, _, step, mask, _ = _LINES[direction]
    return step, mask


def _board_move(direction: str) -> Callable[[Board], MoveResult]:
    step, mask = line_keys(direction)
    step2, step3 = 2 * step, 3 * step
    tables = tuple(LineTable(line_move(direction, position)) for position in range(4))
    line0, line1, line2, line3 = (table.entries for table in tables)

    def move(board: Board) -> MoveResult:
        key0, key1 = board & mask, board >> step & mask
        key2, key3 = board >> step2 & mask, board >> step3 & mask
        try:
            total = line0[key0] + line1[key1] + line2[key2] + line3[key3]
        except KeyError:
            total = sum(table.get(key) for table, key in zip(tables, (key0, key1, key2, key3)))
        return total & BOARD_MASK, total >> BOARD_BITS

    move.__name__ = move.__qualname__ = f"move_{direction}"
    move.__doc__ = f"The board after pushing {direction}, and the points scored."
    return move


MOVES: dict[str, Callable[[Board], MoveResult]] = {
    direction: _board_move(direction) for direction in DIRECTIONS
}

# Legal directions for each 4-bit mask (bit 0 up, bit 1 down, bit 2 left, bit 3 right).
_DIRECTIONS_BY_MASK = tuple(
    tuple(direction for bit, direction in enumerate(DIRECTIONS) if mask >> bit & 1)
    for mask in range(16)
)


def legal_directions(board: Board) -> tuple[str, ...]:
    """The directions that change the board, in DIRECTIONS order."""
    row0, row1 = board & ROW_MASK, board >> 20 & ROW_MASK
    row2, row3 = board >> 40 & ROW_MASK, board >> 60
    column0, column1 = board & COLUMN_MASK, board >> 5 & COLUMN_MASK
    column2, column3 = board >> 10 & COLUMN_MASK, board >> 15 & COLUMN_MASK
    try:
        horizontal = (
            _ROW_ENTRIES[row0] | _ROW_ENTRIES[row1] | _ROW_ENTRIES[row2] | _ROW_ENTRIES[row3]
        )
        vertical = (
            _COLUMN_ENTRIES[column0]
            | _COLUMN_ENTRIES[column1]
            | _COLUMN_ENTRIES[column2]
            | _COLUMN_ENTRIES[column3]
        )
    except KeyError:
        horizontal = 0
        for row in (row0, row1, row2, row3):
            horizontal |= _ROW_CHANGES.get(row)
        vertical = 0
        for column in (column0, column1, column2, column3):
            vertical |= _COLUMN_CHANGES.get(column)
    return _DIRECTIONS_BY_MASK[horizontal << 2 | vertical]


def empty_cells(board: Board) -> tuple[int, ...]:
    """Indexes (4 * row + col) of the empty cells, in reading order."""
    rows = (board & ROW_MASK, board >> 20 & ROW_MASK, board >> 40 & ROW_MASK, board >> 60)
    try:
        return _EMPTY_0[rows[0]] + _EMPTY_1[rows[1]] + _EMPTY_2[rows[2]] + _EMPTY_3[rows[3]]
    except KeyError:
        return sum((table.get(row) for table, row in zip(_EMPTY_CELLS_BY_ROW, rows)), ())


def exponent_at(board: Board, cell: int) -> int:
    """The exponent in cell 4 * row + col (0 = empty)."""
    return board >> (CELL_BITS * cell) & CELL_MASK


_CELL_SHIFTS = tuple(range(0, BOARD_BITS, CELL_BITS))


def exponents(board: Board) -> list[int]:
    """The exponent of every cell, reading order (0 = empty)."""
    return [board >> shift & CELL_MASK for shift in _CELL_SHIFTS]


def max_exponent(board: Board) -> int:
    """The largest exponent on the board (0 for an empty board)."""
    return max(exponents(board))


def tile_sum(board: Board) -> int:
    """The sum of the tiles' values."""
    return sum(1 << exponent for exponent in exponents(board) if exponent)


def with_tile(board: Board, cell: int, exponent: int) -> Board:
    """The board with `exponent` placed in the (empty) cell."""
    return board | exponent << (CELL_BITS * cell)


def pack(exponent_rows: Iterable[Iterable[int]]) -> Board:
    """Pack 4 rows of 4 exponents into a board."""
    return sum(pack_row(row) << (LINE_BITS * index) for index, row in enumerate(exponent_rows))


def unpack(board: Board) -> tuple[tuple[int, ...], ...]:
    """The 4 rows of 4 exponents of a board."""
    return tuple(row_exponents(board >> (LINE_BITS * row) & ROW_MASK) for row in range(4))


def tile_values(board: Board) -> tuple[tuple[int, ...], ...]:
    """The 4 rows of 4 tile values of a board (0 for an empty cell)."""
    return tuple(
        tuple(1 << exponent if exponent else 0 for exponent in row) for row in unpack(board)
    )
