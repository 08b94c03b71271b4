"""A game's moves from its start: what undo, a replay viewer and a review of every position use.

A `History` is an immutable value: the position before the first move, the directions played
in order, and a checkpoint every `checkpoint_every` moves, so that any position of the game is
at most that many moves of replay away from one it knows. A `Recording` is the same thing
still being written: the part of a `Game` that records its moves.

The saved form is a dict of plain JSON types:

    {"version": 1, "start": {...}, "count": 1234, "moves": "4T5R...", "checkpoint_every": 500,
     "checkpoints": [[5208, 571, [[2, 4, 0, 0], ...], [568, 12, ...]], ...]}

`start` is the saved position before the first move (see `saved_state`), `count` the number of
moves. `moves` is the base64 of the moves packed four to a byte, the first in the two lowest
bits, each the index of its direction in DIRECTIONS (up 0, down 1, left 2, right 3); the
unused bits of the last byte are 0. Checkpoint i is the game after move
(i + 1) * checkpoint_every: its score, the next tile id, its rows, and the ids of its tiles in
reading order. The rest follows from the start and the move number: the seed, the moves and
spawns made (one spawn a move), `won` (a tile of 2048 or more is on the board).

`History.from_dict` refuses with ValueError anything malformed: not a dict, missing or extra
keys, another version, a start that does not load, a count that is not a non-negative int,
moves that are not canonical base64, one byte too many or too few for the count, unused bits
set, a spacing that is not a positive int, the wrong number of checkpoints, a checkpoint that
is not [score, next_id, rows, ids] with each part as a saved position has it, or that cannot
follow the one before (see `check_follows`). Nothing is replayed: a history whose moves are not
legal is found out by the replay, which raises ValueError at the first move the game refuses.
"""

import base64
import binascii
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple, Optional

from engine import saved_state, validation
from engine.board import Board, exponent_at, max_exponent, pack, tile_sum, tile_values
from engine.directions import DIRECTIONS
from engine.saved_state import SavedState
from engine.validation import WIN_EXPONENT

VERSION = 1
#: Moves between two checkpoints: an undo or a replay plays at most this many moves.
CHECKPOINT_EVERY = 500
CODES = {direction: code for code, direction in enumerate(DIRECTIONS)}
_KEYS = frozenset({"version", "start", "count", "moves", "checkpoint_every", "checkpoints"})


class Checkpoint(NamedTuple):
    """The game after a multiple of `checkpoint_every` moves: what the move number does not tell."""

    board: Board
    score: int
    next_id: int
    ids: tuple[int, ...]  # one per cell, reading order, 0 = empty


class Step(NamedTuple):
    """One move of a game as `History.walk` gives it: the rows before it, and its direction."""

    rows: tuple[tuple[int, ...], ...]
    direction: str


class History:
    """The moves of one game from its start, an immutable value.

    `Game.history` makes one and `History.from_dict` reads one back; `Game.replay` and
    `Game.from_dict` take one.
    """

    __slots__ = ("_start", "_codes", "_checkpoints", "_every")

    def __init__(
        self, start: SavedState, codes: bytes, checkpoints: tuple[Checkpoint, ...], every: int
    ) -> None:
        self._start = start
        self._codes = codes  # one direction code a byte
        self._checkpoints = checkpoints
        self._every = every

    @property
    def start(self) -> dict:
        """The saved form (`Game.to_dict()`) of the position before the first move."""
        return saved_state.dump(self._start)

    def __len__(self) -> int:
        return len(self._codes)

    def directions(self) -> tuple[str, ...]:
        """The directions played, in order."""
        return tuple(DIRECTIONS[code] for code in self._codes)

    def walk(self) -> Iterator[Step]:
        """Each move in order with the rows before it, all from one replay of the game;
        ValueError at the first move the game refuses."""
        from engine.game import walk  # Game plays the moves, and is built on this module

        return walk(self)

    def to_dict(self) -> dict:
        """The history as a dict of plain JSON types (see the module's docstring)."""
        return {
            "version": VERSION,
            "start": self.start,
            "count": len(self._codes),
            "moves": base64.b64encode(_pack(self._codes)).decode("ascii"),
            "checkpoint_every": self._every,
            "checkpoints": [_dump_checkpoint(checkpoint) for checkpoint in self._checkpoints],
        }

    @classmethod
    def from_dict(cls, data: object) -> "History":
        """The history saved by `to_dict`; ValueError if `data` is not a well-formed one."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a history is a dict, not {type(data).__name__}")
        keys = set(data)
        if keys != _KEYS:
            raise ValueError(
                f"history keys: missing {sorted(map(str, _KEYS - keys))}, "
                f"unexpected {sorted(map(str, keys - _KEYS))}"
            )
        version = validation.integer(data["version"], "version")
        if version != VERSION:
            raise ValueError(f"unknown history version {version}")
        start = saved_state.load(data["start"])
        count = validation.count(data["count"], "count")
        codes = _unpack(_base64(data["moves"]), count)
        every = validation.count(data["checkpoint_every"], "checkpoint_every")
        if not every:
            raise ValueError("checkpoint_every must be positive")
        entries = validation.items(data["checkpoints"], "checkpoints")
        if len(entries) != count // every:
            raise ValueError(f"{count} moves need {count // every} checkpoints, not {len(entries)}")
        checkpoints = tuple(map(_load_checkpoint, entries))
        history = cls(start, codes, checkpoints, every)
        earlier = start
        for index in range(len(checkpoints)):
            later = _position_after(start, (index + 1) * every, checkpoints[index])
            check_follows(earlier, later, every)
            earlier = later
        return history

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        return (self._start, self._codes, self._checkpoints, self._every) == (
            other._start, other._codes, other._checkpoints, other._every
        )

    def __hash__(self) -> int:
        return hash((self._start.board, self._start.seed, self._codes))

    def __repr__(self) -> str:
        return f"<History {len(self._codes)} moves from seed {self._start.seed}>"


class Recording:
    """A history being written: what a `Game` keeps as it plays, and freezes into a History.

    `codes` holds one direction code a byte, `checkpoints` the Checkpoint after each multiple of
    `every` moves; the game appends to both.
    """

    __slots__ = ("start", "codes", "checkpoints", "every")

    def __init__(
        self,
        start: SavedState,
        codes: bytes = b"",
        checkpoints: Sequence[Checkpoint] = (),
        every: Optional[int] = None,
    ) -> None:
        self.start = start
        self.codes = bytearray(codes)
        self.checkpoints = list(checkpoints)
        self.every = CHECKPOINT_EVERY if every is None else every

    @classmethod
    def of(cls, history: History) -> "Recording":
        """A recording that goes on from the end of `history`."""
        return cls(history._start, history._codes, history._checkpoints, history._every)

    @classmethod
    def continuing(cls, history: History, position: SavedState) -> "Recording":
        """The recording of a game now at `position` whose moves so far are `history`;
        ValueError if the two disagree in anything that can be seen without a replay."""
        start, count = history._start, len(history._codes)
        if position.seed != start.seed:
            raise ValueError("the position and its history have different seeds")
        if position.moves != start.moves + count or position.spawns != start.spawns + count:
            raise ValueError(f"the position's move or spawn count does not follow {count} moves")
        recorded = len(history._checkpoints) * history._every
        latest = (
            _position_after(start, recorded, history._checkpoints[-1]) if recorded else start
        )
        check_follows(latest, position, count - recorded)
        return cls.of(history)

    def freeze(self) -> History:
        """The moves recorded so far, as a History."""
        return History(self.start, bytes(self.codes), tuple(self.checkpoints), self.every)

    def resume_point(self, moves: int) -> tuple[SavedState, int]:
        """Where a replay to the game after `moves` moves begins: the start, or the last
        checkpoint before the last of those moves; and how many moves that one stands for."""
        played = (moves - 1) // self.every * self.every if moves else 0
        if not played:
            return self.start, 0
        return _position_after(self.start, played, self.checkpoints[played // self.every - 1]), played

    def prefix(self, moves: int) -> "Recording":
        """A recording of the first `moves` moves only."""
        return Recording(
            self.start, self.codes[:moves], self.checkpoints[: moves // self.every], self.every
        )

    def directions(self, first: int, stop: int) -> list[str]:
        """The directions of moves first + 1 to stop."""
        return [DIRECTIONS[code] for code in self.codes[first:stop]]


def check_follows(earlier: SavedState, later: SavedState, moves: int) -> None:
    """ValueError if `later` cannot be the game `moves` moves after `earlier`, as far as that
    shows without a replay: the same tiles and score after no move; otherwise a score not
    lower, at least one new tile id a move, a tile sum grown by 2 to 4 a move (merges keep it,
    each spawn adds a 2 or a 4), and a largest tile not smaller."""
    if not moves:
        if (earlier.board, earlier.ids, earlier.next_id, earlier.score) != (
            later.board, later.ids, later.next_id, later.score
        ):
            raise ValueError("a position after no move must be the one before it")
        return
    if later.score < earlier.score:
        raise ValueError("the score cannot go down")
    if later.next_id < earlier.next_id + moves:
        raise ValueError("every move gives its new tile an id")
    if not 2 * moves <= tile_sum(later.board) - tile_sum(earlier.board) <= 4 * moves:
        raise ValueError("every move adds a 2 or a 4 to the tiles")
    if max_exponent(later.board) < max_exponent(earlier.board):
        raise ValueError("the largest tile cannot shrink")


def _position_after(start: SavedState, moves: int, checkpoint: Checkpoint) -> SavedState:
    """The game `moves` moves after `start`, at its checkpoint. Its last_points is not kept and
    reads 0: a replay from a checkpoint plays at least one move, which sets it."""
    board, score, next_id, ids = checkpoint
    return SavedState(
        board=board, ids=list(ids), next_id=next_id, seed=start.seed,
        spawns=start.spawns + moves, score=score, moves=start.moves + moves,
        won=max_exponent(board) >= WIN_EXPONENT, awaiting_choice=False, last_points=0,
    )


def _pack(codes: bytes) -> bytes:
    """Four 2-bit codes a byte, the first in the lowest bits.

    Every fourth code, read as one big int of bytes and shifted by 2, 4 or 6 bits, lands in its
    place inside each byte (3 << 6 still fits a byte), so four ORs pack them all.
    """
    padded = bytes(codes) + bytes(-len(codes) % 4)
    packed = 0
    for slot in range(4):
        packed |= int.from_bytes(padded[slot::4], "little") << (2 * slot)
    return packed.to_bytes(len(padded) // 4, "little")


def _unpack(packed: bytes, count: int) -> bytes:
    """The `count` codes that `_pack` put in `packed`; ValueError for a wrong length or set
    unused bits."""
    if len(packed) != -(-count // 4):
        raise ValueError(f"{count} moves take {-(-count // 4)} bytes, not {len(packed)}")
    whole = int.from_bytes(packed, "little")
    low_bits = int.from_bytes(b"\x03" * len(packed), "little")
    codes = bytearray(4 * len(packed))
    for slot in range(4):
        codes[slot::4] = (whole >> (2 * slot) & low_bits).to_bytes(len(packed), "little")
    if any(codes[count:]):
        raise ValueError("the unused bits after the last move must be 0")
    return bytes(codes[:count])


def _base64(value: object) -> bytes:
    if not isinstance(value, str):
        raise ValueError(f"moves must be a base64 string, not {type(value).__name__}")
    try:
        packed = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("moves must be base64") from None
    if base64.b64encode(packed).decode("ascii") != value:
        raise ValueError("moves must be base64 written the one standard way")
    return packed


def _dump_checkpoint(checkpoint: Checkpoint) -> list:
    board, score, next_id, ids = checkpoint
    tiles = [tile_id for cell, tile_id in enumerate(ids) if exponent_at(board, cell)]
    return [score, next_id, [list(row) for row in tile_values(board)], tiles]


def _load_checkpoint(value: object) -> Checkpoint:
    parts = validation.items(value, "a checkpoint")
    if len(parts) != 4:
        raise ValueError(f"a checkpoint is [score, next_id, rows, ids], not {len(parts)} items")
    score = validation.score(parts[0])
    next_id = validation.count(parts[1], "next_id")
    exponent_rows = validation.exponent_rows(parts[2])
    validation.check_playable(exponent_rows)
    board = pack(exponent_rows)
    tile_ids = [
        validation.integer(tile_id, "a tile id")
        for tile_id in validation.items(parts[3], "checkpoint ids")
    ]
    cells = [cell for cell in range(16) if exponent_at(board, cell)]
    if len(tile_ids) != len(cells):
        raise ValueError(f"a checkpoint with {len(cells)} tiles needs {len(cells)} ids")
    ids = [0] * 16
    for cell, tile_id in zip(cells, tile_ids):
        ids[cell] = tile_id
    saved_state.check_tile_ids(ids, board, next_id)
    return Checkpoint(board, score, next_id, tuple(ids))
