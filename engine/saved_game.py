"""A whole game in one saved form: its history, with the position now as the history's end.

    {"version": 3, "seed": 123,
     "start": {"tiles": "AgAAAAAAAAAAAAACAQ==", "spawns": 2, "moves": 0,
               "awaiting_choice": false, "last_points": 0},
     "count": 1234, "moves": "4T5R...", "checkpoint_every": 1000, "checkpoints": "AQhAAAAE...",
     "end": {"tiles": "...", "awaiting_choice": false, "last_points": 8}}

`start` is the position before the first move and `end` the game now. A position's `tiles` are
its board, score, next tile id and tile ids, packed as a checkpoint is (`history_codec`); the
seed is the game's, `won` is a tile of 2048 or more on the board, and the end's move and spawn
counts are the start's plus `count` (one spawn a move), so none of these can disagree. Its
other fields are the flags `position.FLAGS` lists, each under its own key. `count` is the
number of moves, `moves` the moves at 2 bits each, and `checkpoints` the checkpoint after every
`checkpoint_every` moves (see `history`), packed as `history_codec` describes.

`load` refuses with ValueError anything `dump` never wrote: not a dict, missing or extra keys
(in the start and the end too), another version, wrong types (bools are not integers), moves or
checkpoints that are not base64 written the standard way or hold a byte too many or too few for
the count, unused bits set, a spacing that is not a positive int, the wrong number of
checkpoints, a position no game can have (a board with fewer than two tiles or two 131072s, an
odd score, tile ids not distinct, not below the next id or not 0 on empty cells, flags that do
not fit the board and score), or a checkpoint or an end that cannot follow the one before
(`history.check_follows`). It leaves the moves packed: a game loaded to play one move and saved
again never unpacks them, and `dump` writes them out as they are, the new moves added in place.
What only a replay finds is left to the replay (`DamagedHistory`). Forms older than this one are
read by `legacy`.

The checkpoints change once in CHECKPOINT_EVERY moves, and the start never, so they are read and
checked once: the last CACHED texts of each are kept decoded, and a game keeps the checkpoints'
text it was read from (or last written to) for as long as it adds no checkpoint.
"""

from collections.abc import Mapping
from functools import lru_cache

from engine import validation
from engine.board import max_exponent
from engine.history import Recording, check_checkpoints, check_end
from engine.history_codec import (
    Checkpoint,
    decode_checkpoints,
    encode_checkpoints,
    packed_moves,
    to_text,
)
from engine.position import FLAGS, Position, check_flags
from engine.validation import WIN_EXPONENT

VERSION = 3  # 1 and 2, a position and a history saved side by side, are read by `legacy`
_KEYS = frozenset({"version", "seed", "start", "count", "moves", "checkpoint_every",
                   "checkpoints", "end"})
#: A position's keys: its tiles and its flags; the start's also its counts, which the end's
#: follow from.
_END_KEYS = frozenset({"tiles", *FLAGS})
_START_KEYS = _END_KEYS | {"spawns", "moves"}
#: Checkpoint texts kept decoded (a 20,000-move game's take about 5 kB).
CACHED = 1024


def dump(position: Position, recording: Recording) -> dict:
    """The saved form of the game at `position` whose moves are `recording`."""
    start = recording.start
    saved = recording.saved
    if "start" not in saved:
        saved["start"] = {**_flags(start), "tiles": _tiles(start),
                          "spawns": start.spawns, "moves": start.moves}
    written = len(recording.checkpoints)
    if saved.get("checkpoints", (None,))[0] != written:
        saved["checkpoints"] = written, encode_checkpoints(
            tuple(map(recording.checkpoint, range(written))))
    return {
        "version": VERSION,
        "seed": start.seed,
        "start": dict(saved["start"]),  # the caller's to change
        "count": recording.count,
        "moves": to_text(recording.packed),
        "checkpoint_every": recording.every,
        "checkpoints": saved["checkpoints"][1],
        "end": {**_flags(position), "tiles": _tiles(position)},
    }


def load(data: object) -> tuple[Position, Recording]:
    """The position and the recording of a game saved by `dump`; ValueError if `data` is not
    a well-formed one."""
    data = validation.fields(data, _KEYS, "saved game")
    validation.version(data["version"], VERSION, "saved game")
    seed = validation.seed(data["seed"])
    validation.fields(data["start"], _START_KEYS, "start")
    start = _position(data["start"], seed, validation.count(data["start"]["spawns"], "spawns"),
                      validation.count(data["start"]["moves"], "moves"))
    count = validation.count(data["count"], "count")
    packed = packed_moves(data["moves"], count)
    every = validation.count(data["checkpoint_every"], "checkpoint_every")
    if not every:
        raise ValueError("checkpoint_every must be positive")
    if not isinstance(data["checkpoints"], str):
        raise ValueError("checkpoints must be a base64 string")
    checkpoints = _checkpoints(data["checkpoints"], count // every, every, start)
    validation.fields(data["end"], _END_KEYS, "end")
    end = _position(data["end"], seed, start.spawns + count, start.moves + count)
    check_end(start, checkpoints, every, count, end)
    recording = Recording(start, checkpoints=checkpoints, every=every, packed=packed,
                          count=count)
    recording.saved.update(start=dict(data["start"]),  # kept apart from the caller's
                           checkpoints=(len(checkpoints), data["checkpoints"]))
    return end, recording


@lru_cache(maxsize=CACHED)
def _checkpoints(text: str, expected: int, every: int, start: Position
                 ) -> tuple[Checkpoint, ...]:
    """The `expected` checkpoints in `text`, each checked to follow the one before (the
    first, `start`)."""
    checkpoints = decode_checkpoints(text, expected)
    check_checkpoints(start, checkpoints, every)
    return checkpoints


@lru_cache(maxsize=CACHED)
def _decoded_tiles(text: str) -> Checkpoint:
    """The position a `tiles` text packs, checked. A game's start is read again with every
    request and never changes, so the last CACHED texts are kept decoded."""
    (position,) = decode_checkpoints(text, 1)
    return position


def _tiles(position: Position) -> str:
    return encode_checkpoints((Checkpoint(position.board, position.score, position.next_id,
                                          position.ids),))


def _flags(position: Position) -> dict:
    return {name: getattr(position, name) for name in FLAGS}


def _position(data: Mapping, seed: int, spawns: int, moves: int) -> Position:
    """A saved position's tiles and flags, with the counts that the rest of the form gives."""
    tiles = data["tiles"]
    if not isinstance(tiles, str):
        raise ValueError(f"tiles must be a base64 string, not {type(tiles).__name__}")
    board, score, next_id, ids = _decoded_tiles(tiles)
    position = Position(board=board, ids=ids, next_id=next_id, seed=seed, spawns=spawns,
                        score=score, moves=moves, won=max_exponent(board) >= WIN_EXPONENT,
                        **{name: check(data[name], name) for name, check in FLAGS.items()})
    check_flags(position)
    return position
