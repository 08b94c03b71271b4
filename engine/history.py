"""A game's moves from its start: what undo, a replay viewer and a review of every position use.

A `History` is an immutable value: the position before the first move, the directions played
in order, and a checkpoint every `checkpoint_every` moves, so that any position of the game is
at most that many moves of replay away from one it knows. A `Recording` is the same thing
still being written: the part of a `Game` that records its moves.

Checkpoint i is the game after move (i + 1) * checkpoint_every: its board, score, next tile id
and the ids of its tiles. The rest of a checkpoint follows from the start and the move number:
the seed, the moves and spawns made (one spawn a move), `won` (a tile of 2048 or more is on
the board). A history is saved as part of its game (`saved_game`), which reads it back checked
by `check_checkpoints` and `check_end` without replaying it: a history whose moves do not
replay to its game (a move the game refuses, a checkpoint or an end the replay does not reach)
is found out by the replay, which raises `DamagedHistory`.
"""

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from engine.board import Board, max_exponent, tile_sum
from engine.directions import DIRECTIONS
from engine.history_codec import Checkpoint, append_move, pack_moves, unpack_moves
from engine.position import Position
from engine.tiles import IdsMark
from engine.validation import WIN_EXPONENT

#: Moves between two checkpoints: an undo or a replay plays at most this many moves. Measured
#: with bench/engine_history.py --every on a 20,000-move game: 1000 keeps an undo to a few ms
#: of CPU, while the checkpoints stay an eighth of the stored bytes and loading them under 1 ms.
CHECKPOINT_EVERY = 1000
CODES = {direction: code for code, direction in enumerate(DIRECTIONS)}


class DamagedHistory(ValueError):
    """A history that does not replay to its own game: a recorded move the game refuses, or a
    checkpoint or a last move the replay does not reach. Stored bits that changed since the game
    was written, since play itself never records such a history (see `Game.sound_part`)."""


class LaterCheckpoint(NamedTuple):
    """A checkpoint of a game in play, whose tile ids the ledger works out when first read
    (so that playing on without looking at ids never pays for them)."""

    board: Board
    score: int
    ids: IdsMark

    def resolved(self) -> Checkpoint:
        cell_ids, next_id = self.ids.value()
        return Checkpoint(self.board, self.score, next_id, cell_ids)


class Step(NamedTuple):
    """One move of a game as `History.walk` gives it: the rows before it, and its direction."""

    rows: tuple[tuple[int, ...], ...]
    direction: str


class History:
    """The moves of one game from its start, an immutable value.

    `Game.history` makes one; `Game.replay` takes one.
    """

    __slots__ = ("_start", "_codes", "_checkpoints", "_every")

    def __init__(
        self, start: Position, codes: bytes, checkpoints: tuple[Checkpoint, ...], every: int
    ) -> None:
        self._start = start
        self._codes = codes  # one direction code a byte
        self._checkpoints = checkpoints
        self._every = every

    @property
    def start(self) -> Position:
        """The position before the first move."""
        return self._start

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

    The moves are kept one direction code a byte (`codes`), packed four a byte (`packed`) as
    the saved form has them, or both: each form is made from the other when first asked for, so
    a game loaded to play one move never unpacks its moves. `checkpoints` holds the Checkpoint
    (or LaterCheckpoint) after each multiple of `every` moves; `append` and the game add to both.
    """

    __slots__ = ("start", "count", "checkpoints", "every", "saved", "_codes", "_packed")

    def __init__(
        self,
        start: Position,
        codes: bytes = b"",
        checkpoints: Sequence[Checkpoint | LaterCheckpoint] = (),
        every: int | None = None,
        packed: bytes | None = None,
        count: int = 0,
    ) -> None:
        """The recording of `codes` (or of `count` moves in `packed`) after `start`."""
        self.start = start
        self._codes = None if packed is not None else bytearray(codes)
        self._packed = None if packed is None else bytearray(packed)
        self.count = count if packed is not None else len(codes)
        self.checkpoints = list(checkpoints)
        self.every = CHECKPOINT_EVERY if every is None else every
        self.saved: dict = {}  # parts of the saved form that are still current (`saved_game`)

    @property
    def codes(self) -> bytearray:
        """The moves, one direction code a byte."""
        if self._codes is None:
            self._codes = bytearray(unpack_moves(self._packed, self.count))
        return self._codes

    @property
    def packed(self) -> bytes:
        """The moves packed four a byte (see `history_codec`)."""
        if self._packed is None:
            self._packed = bytearray(pack_moves(self._codes))
        return self._packed

    def append(self, code: int) -> None:
        """Record one more move, direction code `code`."""
        if self._packed is not None:
            append_move(self._packed, self.count, code)
        if self._codes is not None:
            self._codes.append(code)
        self.count += 1

    @classmethod
    def of(cls, history: History) -> "Recording":
        """A recording that goes on from the end of `history`."""
        return cls(history._start, history._codes, history._checkpoints, history._every)

    def freeze(self) -> History:
        """The moves recorded so far, as a History."""
        checkpoints = tuple(map(self.checkpoint, range(len(self.checkpoints))))
        return History(self.start, bytes(self.codes), checkpoints, self.every)

    def checkpoint(self, index: int) -> Checkpoint:
        """Checkpoint `index`, its ids worked out if they were not yet."""
        checkpoint = self.checkpoints[index]
        if isinstance(checkpoint, LaterCheckpoint):
            checkpoint = self.checkpoints[index] = checkpoint.resolved()
        return checkpoint

    def resume_point(self, moves: int) -> tuple[Position, int]:
        """Where a replay to the game after `moves` moves begins: the start, or the last
        checkpoint before the last of those moves; and how many moves that one stands for."""
        played = (moves - 1) // self.every * self.every if moves else 0
        if not played:
            return self.start, 0
        checkpoint = self.checkpoint(played // self.every - 1)
        return _position_after(self.start, played, checkpoint), played

    def prefix(self, moves: int) -> "Recording":
        """A recording of the first `moves` moves only."""
        return Recording(
            self.start, self.codes[:moves], self.checkpoints[: moves // self.every], self.every
        )

    def directions(self, first: int, stop: int) -> list[str]:
        """The directions of moves first + 1 to stop."""
        return [DIRECTIONS[code] for code in self.codes[first:stop]]


def check_checkpoints(start: Position, checkpoints: Sequence[Checkpoint], every: int) -> None:
    """ValueError unless each checkpoint can follow the one before it (the first, `start`)."""
    earlier = start
    for index, checkpoint in enumerate(checkpoints):
        later = _position_after(start, (index + 1) * every, checkpoint)
        check_follows(earlier, later, every)
        earlier = later


def check_end(start: Position, checkpoints: Sequence[Checkpoint], every: int, count: int,
              position: Position) -> None:
    """ValueError unless `position` can follow the last of `checkpoints` (or `start`) as the
    game after `count` moves."""
    recorded = len(checkpoints) * every
    latest = _position_after(start, recorded, checkpoints[-1]) if recorded else start
    check_follows(latest, position, count - recorded)


def check_follows(earlier: Position, later: Position, moves: int) -> None:
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


def _position_after(start: Position, moves: int, checkpoint: Checkpoint) -> Position:
    """The game `moves` moves after `start`, at its checkpoint. Its last_points is not kept and
    reads 0: a replay from a checkpoint plays at least one move, which sets it."""
    board, score, next_id, ids = checkpoint
    return Position(
        board=board, ids=ids, next_id=next_id, seed=start.seed, spawns=start.spawns + moves,
        score=score, moves=start.moves + moves, won=max_exponent(board) >= WIN_EXPONENT,
    )
