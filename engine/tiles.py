"""Tile identities: which tile went where in the last move, so a page can animate it.

The ledger keeps one id per cell (0 = empty). A move rewrites only the cells whose content
changed, following a plan cached per (direction, line, line content) next to the line's move
result: a tile that slides keeps its id, a merged tile gets a fresh id, so does a spawned tile.
The rewriting waits until the ids are read, so playing without looking costs nothing extra.
"""

from collections.abc import Sequence
from typing import NamedTuple

from engine.board import (
    BOARD_BITS,
    BOARD_MASK,
    Board,
    LineTable,
    column_exponents,
    exponent_at,
    line_keys,
    line_move,
    row_exponents,
)
from engine.directions import DIRECTIONS
from engine.line import slide_line

Cell = tuple[int, int]  # (row, col)


class Tile(NamedTuple):
    """One tile on the board, as the last move left it.

    `previous` is where it was before the move (None for a new, merged or freshly loaded tile),
    `merged_from` the two tiles that became this one (their row/col is this tile's cell),
    `is_new` marks the spawned tile (and both starting tiles of a new game). A named tuple: a
    page asks for the board's tiles with every answer, and one is made in a third of a frozen
    dataclass's time.
    """

    id: int
    value: int
    row: int
    col: int
    previous: Cell | None = None
    merged_from: tuple["Tile", "Tile"] | None = None
    is_new: bool = False


# Cells of each line in the order the tiles travel: direction -> 4 lines of 4 cells.
LINE_CELLS = {
    "left": tuple(tuple(4 * row + col for col in range(4)) for row in range(4)),
    "right": tuple(tuple(4 * row + col for col in reversed(range(4))) for row in range(4)),
    "up": tuple(tuple(4 * row + col for row in range(4)) for col in range(4)),
    "down": tuple(tuple(4 * row + col for row in reversed(range(4))) for col in range(4)),
}

# What one line's move does to the tiles' ids: `slides` holds (cell, source cell) for each cell
# whose content changes without a merge (source EMPTY_SLOT when the cell is emptied), `merges`
# holds (cell, first source, second source) for each cell receiving a merged tile.
EMPTY_SLOT = 16  # index of the extra id slot, always 0, that emptied cells copy from


class LinePlan(NamedTuple):
    move_value: int  # see board.line_move
    slides: tuple[tuple[int, int], ...]
    merges: tuple[tuple[int, int, int], ...]
    empty_after: tuple[int, ...]  # the line's cells left empty by the move


_SHARED: dict[tuple, tuple] = {}


def _shared(value: tuple) -> tuple:
    """One object for equal tuples, so that the plans stay small in memory."""
    return _SHARED.setdefault(value, value)


def _line_table(direction: str, position: int) -> LineTable:
    """For one line of the board pushed in `direction`: its packed content -> its LinePlan.
    The move and the tiles' bookkeeping come from the same look-up."""
    cells = LINE_CELLS[direction][position]
    read = row_exponents if direction in ("left", "right") else column_exponents
    reverse = direction in ("right", "down")
    move_value = line_move(direction, position)

    def compute(key: int) -> LinePlan:
        exponents = read(key)
        in_travel_order = exponents[::-1] if reverse else exponents
        slides, merges, empty_after = [], [], []
        for slot, origin in enumerate(slide_line(in_travel_order).origins):
            cell = cells[slot]
            if len(origin) == 2:
                merges.append(_shared((cell, cells[origin[0]], cells[origin[1]])))
            elif origin and cells[origin[0]] != cell:
                slides.append(_shared((cell, cells[origin[0]])))
            elif not origin:
                empty_after.append(cell)
                if in_travel_order[slot]:
                    slides.append(_shared((cell, EMPTY_SLOT)))
        return LinePlan(
            move_value(key),
            _shared(tuple(slides)),
            _shared(tuple(merges)),
            _shared(tuple(empty_after)),
        )

    return LineTable(compute)


_TABLES = {
    direction: tuple(_line_table(direction, position) for position in range(4))
    for direction in DIRECTIONS
}
# direction -> (bits from one line's key to the next, mask of the first key, the four dicts)
_LOOKUP = {
    direction: line_keys(direction) + tuple(table.entries for table in tables)
    for direction, tables in _TABLES.items()
}


class IdsMark:
    """The cell ids and next id of a ledger at one point of its past (see `TileLedger.mark`)."""

    __slots__ = ("_ledger", "_value")

    def __init__(self, ledger: "TileLedger") -> None:
        self._ledger: TileLedger | None = ledger
        self._value: tuple[tuple[int, ...], int] | None = None

    def value(self) -> tuple[tuple[int, ...], int]:
        """(the id in each cell, reading order; the next id to give) at the mark."""
        if self._value is None:
            self._ledger._settle()  # fills in the value
        return self._value  # type: ignore[return-value]

    def _fill(self, ids: list[int], next_id: int) -> None:
        self._value = (tuple(ids[:16]), next_id)
        self._ledger = None


class TileLedger:
    """The id of the tile in each cell (0 = empty), and how the last change got them there.

    Moves are recorded as the line plans they looked up and settled into ids only when someone
    reads them (`cell_ids`, `next_id`, `tiles`, a `mark`): a player's game reads them after
    every move, while a solver or a simulation playing thousands of moves never pays for them.
    """

    __slots__ = (
        "_ids", "_next_id", "_previous_ids", "_last_move", "_new_cells", "_pending", "_marks",
    )

    def __init__(self, ids: Sequence[int], next_id: int) -> None:
        self._ids = [*ids, 0]  # the extra slot is EMPTY_SLOT
        self._next_id = next_id
        self._previous_ids = self._ids
        # (slides, merges) of the last move; None when there is nothing to animate
        self._last_move: tuple[tuple, tuple] | None = None
        self._new_cells: tuple[int, ...] = ()
        # Changes not yet settled: (line plans of a move, or None before any move; new cells)
        self._pending: list[tuple[tuple[LinePlan, ...] | None, list[int]]] = []
        # Marks not yet filled: (how many pending changes come before it, the mark)
        self._marks: list[tuple[int, IdsMark]] = []

    @classmethod
    def numbered(cls, board: Board) -> "TileLedger":
        """Ids 1, 2, ... for the tiles of a board in reading order."""
        ids = [0] * 16
        next_id = 1
        for cell in range(16):
            if exponent_at(board, cell):
                ids[cell] = next_id
                next_id += 1
        return cls(ids, next_id)

    def cell_ids(self) -> tuple[int, ...]:
        """The id in each cell, reading order, 0 for an empty cell."""
        self._settle()
        return tuple(self._ids[:16])

    @property
    def next_id(self) -> int:
        """The id the next new tile will get."""
        self._settle()
        return self._next_id

    def move(self, board: Board, direction: str) -> tuple[Board, int, tuple[int, ...]] | None:
        """Push `board` in `direction`: (new board, points, its empty cells line by line),
        recording the move for the tiles' ids; None for a move that changes nothing."""
        step, mask, entries0, entries1, entries2, entries3 = _LOOKUP[direction]
        key0, key1 = board & mask, board >> step & mask
        key2, key3 = board >> 2 * step & mask, board >> 3 * step & mask
        try:
            line0, line1 = entries0[key0], entries1[key1]
            line2, line3 = entries2[key2], entries3[key3]
        except KeyError:
            tables = _TABLES[direction]
            line0, line1, line2, line3 = (
                tables[0].get(key0), tables[1].get(key1), tables[2].get(key2), tables[3].get(key3)
            )
        total = line0[0] + line1[0] + line2[0] + line3[0]
        new_board = total & BOARD_MASK
        if new_board == board:
            return None
        self._pending.append(((line0, line1, line2, line3), []))
        return new_board, total >> BOARD_BITS, line0[3] + line1[3] + line2[3] + line3[3]

    def mark(self) -> IdsMark:
        """The ids as they are now, worked out only when the mark is read."""
        mark = IdsMark(self)
        if self._pending:
            self._marks.append((len(self._pending), mark))
            self._pending.append((None, []))  # new tiles added from now on come after the mark
        else:
            mark._fill(self._ids, self._next_id)
        return mark

    def add(self, cell: int) -> None:
        """Record the tile that just appeared in `cell`; it gets a fresh id."""
        if not self._pending:
            self._pending.append((None, []))
        self._pending[-1][1].append(cell)

    def _settle(self) -> None:
        """Turn the recorded moves and new tiles into ids, in the order they happened, filling
        in the marks on the way."""
        marks = iter(self._marks)
        waiting, mark = next(marks, (None, None))
        for done, (lines, new_cells) in enumerate(self._pending):
            while waiting == done:
                mark._fill(self._ids, self._next_id)
                waiting, mark = next(marks, (None, None))
            if lines is not None:
                slides = sum((line.slides for line in lines), ())
                merges = sum((line.merges for line in lines), ())
                previous_ids, ids = self._ids, self._ids[:]
                for cell, source in slides:
                    ids[cell] = previous_ids[source]
                for cell, _, _ in merges:
                    ids[cell] = self._next_id
                    self._next_id += 1
                self._ids, self._previous_ids = ids, previous_ids
                self._last_move = (slides, merges)
                self._new_cells = ()
            for cell in new_cells:
                self._ids[cell] = self._next_id
                self._next_id += 1
            self._new_cells += tuple(new_cells)
        while mark is not None:
            mark._fill(self._ids, self._next_id)
            waiting, mark = next(marks, (None, None))
        self._pending.clear()
        self._marks.clear()

    def tiles(self, board: Board) -> tuple[Tile, ...]:
        """The tiles of `board` (after the last change) in reading order."""
        self._settle()
        if self._last_move is None:
            sources, merges = None, {}
        else:
            slides, merge_plan = self._last_move
            sources = dict(slides)
            merges = {cell: parents for cell, *parents in merge_plan}
        return tuple(self._tile(board, cell, sources, merges)
                     for cell in range(16) if exponent_at(board, cell))

    def _tile(self, board: Board, cell: int, sources: dict[int, int] | None,
              merges: dict[int, list[int]]) -> Tile:
        """The tile on `cell`, given where the last move took each cell's content from
        (`sources`, None when nothing has moved yet) and which two cells each merge joined."""
        row, col = divmod(cell, 4)
        value = 1 << exponent_at(board, cell)
        tile_id = self._ids[cell]
        if cell in self._new_cells:
            return Tile(tile_id, value, row, col, is_new=True)
        if sources is None:
            return Tile(tile_id, value, row, col)
        if cell in merges:
            merged_from = tuple(
                Tile(self._previous_ids[p], value // 2, row, col, previous=divmod(p, 4))
                for p in merges[cell]
            )
            return Tile(tile_id, value, row, col, merged_from=merged_from)
        return Tile(tile_id, value, row, col, previous=divmod(sources.get(cell, cell), 4))
