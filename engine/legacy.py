"""The saved forms a game had before its one saved form (`saved_game`, version 3), read back
for the records a store still holds in them; nothing writes them any more.

Version 1 is a position alone:

    {"version": 1, "seed": 123, "spawns": 40, "score": 396, "moves": 38,
     "won": false, "awaiting_choice": false, "last_points": 8,
     "rows": [[2, 4, 0, 0], ...], "ids": [[41, 7, 0, 0], ...], "next_id": 42}

Version 2 is a history alone: the position before its first move (version 1) as `start`, and
the moves and checkpoints as version 3 keeps them:

    {"version": 2, "start": {...}, "count": 1234, "moves": "4T5R...",
     "checkpoint_every": 1000, "checkpoints": "AQhAAAAE..."}

A game was kept as both side by side: the position to resume from, and the history that leads
there (`read_game`). Each reader refuses with ValueError anything its form's writer never
wrote: another version, missing or extra keys, wrong types (bools are not integers), wrong
shapes, a cell that is not 0 or a power of two from 2 to 131072, two 131072 tiles, fewer than
two tiles, a negative or odd score, last_points above the score, `won` without a tile of 2048
or more (or such a tile without `won`), `awaiting_choice` without `won`, tile ids that are not
positive and distinct on the tiles, not 0 on empty cells or not below `next_id`; in a history,
what `saved_game.load` refuses in the same keys; a position and a history that disagree in
anything that shows without a replay.
"""

from engine import validation
from engine.board import pack
from engine.game import Game
from engine.history import History, Recording, check_checkpoints, check_end
from engine.history_codec import decode_checkpoints, decode_moves
from engine.position import Position, check_flags, check_tile_ids
from engine.validation import WIN_EXPONENT

POSITION_VERSION = 1
HISTORY_VERSION = 2  # 1 (checkpoints as lists of ints, one every 500 moves) was never released
_POSITION_KEYS = frozenset({"version", "seed", "spawns", "score", "moves", "won",
                            "awaiting_choice", "last_points", "rows", "ids", "next_id"})
_HISTORY_KEYS = frozenset({"version", "start", "count", "moves", "checkpoint_every",
                           "checkpoints"})


def read_game(position: object, history: object) -> Game:
    """The game kept as a version 1 position and the version 2 history that leads there; it
    goes on recording into that history. ValueError if either is malformed or the two disagree
    in seed, counts or where the last checkpoint leaves the game."""
    now = read_position(position)
    recording = Recording.of(read_history(history))
    start, count = recording.start, recording.count
    if now.seed != start.seed:
        raise ValueError("the position and its history have different seeds")
    if now.moves != start.moves + count or now.spawns != start.spawns + count:
        raise ValueError(f"the position's move or spawn count does not follow {count} moves")
    check_end(start, recording.checkpoints, recording.every, count, now)
    return Game(now, recording)


def read_history(data: object) -> History:
    """A version 2 history; ValueError if `data` is not a well-formed one."""
    data = validation.fields(data, _HISTORY_KEYS, "history")
    validation.version(data["version"], HISTORY_VERSION, "history")
    start = read_position(data["start"])
    count = validation.count(data["count"], "count")
    codes = decode_moves(data["moves"], count)
    every = validation.count(data["checkpoint_every"], "checkpoint_every")
    if not every:
        raise ValueError("checkpoint_every must be positive")
    checkpoints = decode_checkpoints(data["checkpoints"], count // every)
    check_checkpoints(start, checkpoints, every)
    return History(start, codes, checkpoints, every)


def read_position(data: object) -> Position:
    """A version 1 position; ValueError if `data` is not a well-formed, reachable one."""
    data = validation.fields(data, _POSITION_KEYS, "saved game")
    validation.version(data["version"], POSITION_VERSION, "saved game")
    exponent_rows = validation.exponent_rows(data["rows"])
    validation.check_playable(exponent_rows)
    board = pack(exponent_rows)
    won = validation.flag(data["won"], "won")
    if won != (max(map(max, exponent_rows)) >= WIN_EXPONENT):
        raise ValueError("won must be true exactly when a tile of 2048 or more is on the board")
    next_id = validation.count(data["next_id"], "next_id")
    ids = tuple(
        validation.integer(tile_id, "a tile id")
        for row in validation.four_items(data["ids"], "ids")
        for tile_id in validation.four_items(row, "a row of ids")
    )
    check_tile_ids(ids, board, next_id)
    position = Position(
        board=board,
        ids=ids,
        next_id=next_id,
        seed=validation.seed(data["seed"]),
        spawns=validation.count(data["spawns"], "spawns"),
        score=validation.score(data["score"]),
        moves=validation.count(data["moves"], "moves"),
        won=won,
        awaiting_choice=validation.flag(data["awaiting_choice"], "awaiting_choice"),
        last_points=validation.score(data["last_points"], "last_points"),
    )
    check_flags(position)
    return position
