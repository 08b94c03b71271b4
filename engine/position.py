"""A game's position: every field of a game at one point of play, the one list of them.

The saved form (`saved_game`) derives its keys from this table: the tiles text keeps the
fields a checkpoint keeps (`history_codec.Checkpoint`: board, score, next tile id, tile ids),
the form as a whole gives the seed, the counts and `won`, and every other field is a flag of
its own, saved at the history's start and end as it is and read back through the check its
annotation names (`FLAGS`). For the saved form a new field is one line here: its type, its
check and its default, the value a form written before it reads as. Those forms lack its key,
which the present form refuses, so a new field also comes with the form's next version, the
present one then read by `legacy`. `Game` keeps each field in a slot of its own (set in
`Game.__init__`, read back in `Game.position`), where play changes it.
"""

from collections.abc import Callable
from typing import Annotated, NamedTuple, get_type_hints

from engine import validation
from engine.board import Board, exponent_at, tile_values


class Position(NamedTuple):
    """A game at one point: what `Game.position` gives and a history's `start` is. Two games
    in the same position play on alike (their histories aside)."""

    board: Board  # the packed board (`engine.board`); `rows` spells it out
    ids: tuple[int, ...]  # the tile id in each cell, reading order, 0 = empty
    next_id: int  # the id the next new tile gets
    seed: int
    spawns: int  # random draws made so far: the generator's whole state besides the seed
    score: int
    moves: int
    won: bool  # a tile of 2048 or more is on the board
    awaiting_choice: Annotated[bool, validation.flag] = False
    last_points: Annotated[int, validation.score] = 0

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """Tile values row by row, 0 for an empty cell."""
        return tile_values(self.board)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self._asdict().items()
                           if name != "board")
        return f"Position(rows={self.rows}, {fields})"


#: The fields saved as flags of their own, each with its check (`check(value, name)`, a
#: ValueError for a value no game has): those whose annotation names one.
FLAGS: dict[str, Callable[[object, str], object]] = {
    name: hint.__metadata__[0]
    for name, hint in get_type_hints(Position, include_extras=True).items()
    if hasattr(hint, "__metadata__")
}


def check_flags(position: Position) -> None:
    """ValueError unless the flags fit the rest of the position: awaiting the choice needs a
    win, and the last move's points are part of the score."""
    if position.awaiting_choice and not position.won:
        raise ValueError("awaiting_choice needs a tile of 2048 or more")
    if position.last_points > position.score:
        raise ValueError("last_points cannot exceed the score")


def check_tile_ids(ids: tuple[int, ...] | list[int], board: Board, next_id: int) -> None:
    """ValueError unless `ids` (one per cell) are distinct, from 1 to next_id - 1 on the tiles
    of `board` and 0 on its empty cells."""
    for cell, tile_id in enumerate(ids):
        if exponent_at(board, cell):
            if not 0 < tile_id < next_id:
                raise ValueError(f"tile ids must be from 1 to next_id - 1, not {tile_id}")
        elif tile_id:
            raise ValueError("an empty cell has tile id 0")
    on_tiles = [tile_id for tile_id in ids if tile_id]
    if len(set(on_tiles)) != len(on_tiles):
        raise ValueError("tile ids must be distinct")
