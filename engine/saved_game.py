"""A whole game in one saved form: its history, with the position now as the history's end.

    {"version": 3, "seed": 123,
     "start": {"tiles": "AgAAAAAAAAAAAAACAQ==", "spawns": 2, "moves": 0,
               "awaiting_choice": false, "last_points": 0},
     "count": 1234, "moves": "4T5R...", "checkpoint_every": 1000, "checkpoints": "AQhAAAAE...",
     "end": {"tiles": "...", "awaiting_choice": false, "last_points": 8}}

`start` is the position before the first move and `end` the game now. A position's `tiles` are
its board, score, next tile id and tile ids, packed as a checkpoint is (`history_codec`); the
seed is the game's, `won` is a tile of 2048 or more on the board, and the end's move and spawn
counts are the start's plus `count` (one spawn a move), so none of these can disagree.
`count`, `moves`, `checkpoint_every` and `checkpoints` are the history's (see `history`).

`load` checks everything `saved_state.load` and `History.from_dict` check, and that the end can
follow the last checkpoint (`history.check_follows`), but leaves the moves packed: a game loaded
to play one move and saved again never unpacks them, and `dump` writes them out as they are,
the new moves added in place. What only a replay finds is left to the replay (`DamagedHistory`).

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
from engine.saved_state import SavedState
from engine.validation import WIN_EXPONENT

VERSION = 3  # 1 and 2 are `saved_state`'s position and `history`'s dict, saved side by side
_KEYS = frozenset({"version", "seed", "start", "count", "moves", "checkpoint_every",
                   "checkpoints", "end"})
_START_KEYS = frozenset({"tiles", "spawns", "moves", "awaiting_choice", "last_points"})
_END_KEYS = frozenset({"tiles", "awaiting_choice", "last_points"})
#: Checkpoint texts kept decoded (a 20,000-move game's take about 5 kB).
CACHED = 1024


def dump(position: SavedState, recording: Recording) -> dict:
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
        "start": saved["start"],
        "count": recording.count,
        "moves": to_text(recording.packed),
        "checkpoint_every": recording.every,
        "checkpoints": saved["checkpoints"][1],
        "end": {**_flags(position), "tiles": _tiles(position)},
    }


def load(data: object) -> tuple[SavedState, Recording]:
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
    checkpoints = _checkpoints(data["checkpoints"], count // every, every,
                               start._replace(ids=tuple(start.ids)))
    validation.fields(data["end"], _END_KEYS, "end")
    end = _position(data["end"], seed, start.spawns + count, start.moves + count)
    check_end(start, checkpoints, every, count, end)
    recording = Recording(start, checkpoints=checkpoints, every=every, packed=packed,
                          count=count)
    recording.saved.update(start=data["start"], checkpoints=(len(checkpoints), data["checkpoints"]))
    return end, recording


@lru_cache(maxsize=CACHED)
def _checkpoints(text: str, expected: int, every: int, start: SavedState
                 ) -> tuple[Checkpoint, ...]:
    """The `expected` checkpoints in `text`, each checked to follow the one before (the
    first, `start`, whose ids are a tuple here)."""
    checkpoints = decode_checkpoints(text, expected)
    check_checkpoints(start._replace(ids=list(start.ids)), checkpoints, every)
    return checkpoints


@lru_cache(maxsize=CACHED)
def _decoded_tiles(text: str) -> Checkpoint:
    """The position a `tiles` text packs, checked. A game's start is read again with every
    request and never changes, so the last CACHED texts are kept decoded."""
    (position,) = decode_checkpoints(text, 1)
    return position


def _tiles(position: SavedState) -> str:
    return encode_checkpoints((Checkpoint(position.board, position.score, position.next_id,
                                          tuple(position.ids)),))


def _flags(position: SavedState) -> dict:
    return {"awaiting_choice": position.awaiting_choice, "last_points": position.last_points}


def _position(data: Mapping, seed: int, spawns: int, moves: int) -> SavedState:
    """A saved position's tiles and flags, with the counts that the rest of the form gives."""
    tiles = data["tiles"]
    if not isinstance(tiles, str):
        raise ValueError(f"tiles must be a base64 string, not {type(tiles).__name__}")
    board, score, next_id, ids = _decoded_tiles(tiles)
    won = max_exponent(board) >= WIN_EXPONENT
    awaiting_choice = data["awaiting_choice"]
    if not isinstance(awaiting_choice, bool):
        raise ValueError("awaiting_choice must be true or false")
    if awaiting_choice and not won:
        raise ValueError("awaiting_choice needs a tile of 2048 or more")
    last_points = validation.score(data["last_points"])
    if last_points > score:
        raise ValueError("last_points cannot exceed the score")
    return SavedState(board=board, ids=list(ids), next_id=next_id, seed=seed, spawns=spawns,
                      score=score, moves=moves, won=won, awaiting_choice=awaiting_choice,
                      last_points=last_points)
