"""The saved form of a game: a small versioned dict of plain JSON types, checked on load.

    {"version": 1, "seed": 123, "spawns": 40, "score": 396, "moves": 38,
     "won": false, "awaiting_choice": false, "last_points": 8,
     "rows": [[2, 4, 0, 0], ...], "ids": [[41, 7, 0, 0], ...], "next_id": 42}

`spawns` counts the random draws made so far (the generator's whole state besides the seed),
`ids` holds the tile id of each cell (0 where the cell is empty), `next_id` the next id to give.

`load` refuses with ValueError anything that is not a well-formed game: another version,
missing or extra keys, wrong types (bools are not integers), wrong shapes, a cell that is not
0 or a power of two from 2 to 131072, two 131072 tiles, fewer than two tiles, a negative or odd
score, last_points above the score, a tile of 2048 or more without `won` (or `won` without
one), `awaiting_choice` without `won`, ids that are not positive and distinct on the tiles,
not 0 on empty cells, or not below `next_id`. The score is not checked against the tiles.
"""

from typing import NamedTuple

from engine import validation
from engine.board import Board, exponent_at, pack, tile_values
from engine.validation import WIN_EXPONENT

VERSION = 1
_KEYS = frozenset(
    {
        "version", "seed", "spawns", "score", "moves", "won", "awaiting_choice",
        "last_points", "rows", "ids", "next_id",
    }
)


class SavedState(NamedTuple):
    """A position as `dump` writes it and `load` reads it back."""

    board: Board
    ids: list[int]  # one per cell, reading order, 0 = empty
    next_id: int
    seed: int
    spawns: int
    score: int
    moves: int
    won: bool
    awaiting_choice: bool
    last_points: int


def dump(game: SavedState) -> dict:
    """The saved form of a game."""
    return {
        "version": VERSION,
        "seed": game.seed,
        "spawns": game.spawns,
        "score": game.score,
        "moves": game.moves,
        "won": game.won,
        "awaiting_choice": game.awaiting_choice,
        "last_points": game.last_points,
        "rows": [list(row) for row in tile_values(game.board)],
        "ids": [game.ids[4 * row : 4 * row + 4] for row in range(4)],
        "next_id": game.next_id,
    }


def load(data: object) -> SavedState:
    """Read a saved game back; ValueError if it is not a well-formed, reachable game."""
    data = validation.fields(data, _KEYS, "saved game")
    validation.version(data["version"], VERSION, "saved game")

    exponent_rows = validation.exponent_rows(data["rows"])
    validation.check_playable(exponent_rows)
    board = pack(exponent_rows)
    won = _flag(data["won"], "won")
    awaiting_choice = _flag(data["awaiting_choice"], "awaiting_choice")
    has_winning_tile = max(max(row) for row in exponent_rows) >= WIN_EXPONENT
    if won != has_winning_tile:
        raise ValueError("won must be true exactly when a tile of 2048 or more is on the board")
    if awaiting_choice and not won:
        raise ValueError("awaiting_choice needs won")

    score = validation.score(data["score"])
    last_points = validation.score(data["last_points"])
    if last_points > score:
        raise ValueError("last_points cannot exceed the score")
    next_id = validation.count(data["next_id"], "next_id")
    ids = [
        validation.integer(tile_id, "a tile id")
        for row in validation.four_items(data["ids"], "ids")
        for tile_id in validation.four_items(row, "a row of ids")
    ]
    check_tile_ids(ids, board, next_id)
    return SavedState(
        board=board,
        ids=ids,
        next_id=next_id,
        seed=validation.seed(data["seed"]),
        spawns=validation.count(data["spawns"], "spawns"),
        score=score,
        moves=validation.count(data["moves"], "moves"),
        won=won,
        awaiting_choice=awaiting_choice,
        last_points=last_points,
    )


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false")
    return value


def check_tile_ids(ids: list[int], board: Board, next_id: int) -> None:
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
