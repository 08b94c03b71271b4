"""A game of 2048: the board, the score, the win and the end, with seeded spawns."""

from collections.abc import Sequence
from enum import StrEnum
from typing import Optional

from engine import rng, saved_state, validation
from engine.board import (
    Board,
    empty_cells,
    legal_directions,
    max_exponent,
    pack,
    tile_values,
    with_tile,
)
from engine.directions import DIRECTIONS, check_direction
from engine.rng import spawn_choice
from engine.tiles import Tile, TileLedger
from engine.validation import WIN_EXPONENT

_WIN_VALUE = 1 << WIN_EXPONENT
_DIRECTION_SET = frozenset(DIRECTIONS)


class Status(StrEnum):
    """Where a game stands, decided here once for every caller (pages, scripts, the solver).

    WON wins over OVER: a winning merge that also fills the board first asks the player to
    choose; only after "keep playing" does the full board end the game.
    """

    PLAYING = "playing"
    WON = "won"  # a 2048 was just made and the player has not yet chosen to keep playing
    OVER = "over"  # no direction changes the board


def _seed_or_new(seed: object) -> int:
    return rng.new_seed() if seed is None else validation.seed(seed)


class Game:
    """One game in progress. Start one with `Game.new`, `Game.from_rows` or `Game.from_dict`."""

    __slots__ = (
        "_board", "_ledger", "_seed", "_spawns", "_score", "_moves",
        "_won", "_awaiting_choice", "_last_points",
    )

    def __init__(self, saved: saved_state.SavedState, ledger: TileLedger) -> None:
        self._board = saved.board
        self._ledger = ledger
        self._seed = saved.seed
        self._spawns = saved.spawns
        self._score = saved.score
        self._moves = saved.moves
        self._won = saved.won
        self._awaiting_choice = saved.awaiting_choice
        self._last_points = saved.last_points

    # --- starting a game -------------------------------------------------------------------

    @classmethod
    def new(cls, seed: Optional[int] = None) -> "Game":
        """A new game: two starting tiles on two random cells (each a 2, or a 4 one time in ten)."""
        seed = _seed_or_new(seed)
        game = cls._fresh(board=0, ledger=TileLedger([0] * 16, next_id=1), seed=seed, score=0)
        game._spawn(empty_cells(game._board))
        game._spawn(empty_cells(game._board))
        return game

    @classmethod
    def from_rows(
        cls, rows: Sequence[Sequence[int]], score: int = 0, seed: Optional[int] = None
    ) -> "Game":
        """A game set up on the given tile values (0 = empty), e.g. to study a position.

        Checks the shape and values (see `validation`), at least two tiles and the score being
        a non-negative even int. A tile of 2048 or more means the game is already won (and not
        awaiting the player's choice); the next spawns follow `seed`.
        """
        exponent_rows = validation.exponent_rows(rows)
        validation.check_playable(exponent_rows)
        board = pack(exponent_rows)
        seed = _seed_or_new(seed)
        game = cls._fresh(board, TileLedger.numbered(board), seed, validation.score(score))
        game._won = max_exponent(board) >= WIN_EXPONENT
        return game

    @classmethod
    def from_dict(cls, data: object) -> "Game":
        """The game saved by `to_dict`; ValueError if `data` is not a well-formed game."""
        saved = saved_state.load(data)
        return cls(saved, TileLedger(saved.ids, saved.next_id))

    @classmethod
    def _fresh(cls, board: Board, ledger: TileLedger, seed: int, score: int) -> "Game":
        saved = saved_state.SavedState(
            board=board, ids=ledger.cell_ids(), next_id=ledger.next_id, seed=seed, spawns=0,
            score=score, moves=0, won=False, awaiting_choice=False, last_points=0,
        )
        return cls(saved, ledger)

    def to_dict(self) -> dict:
        """The game as a small dict of plain JSON types (see `saved_state`)."""
        return saved_state.dump(
            saved_state.SavedState(
                board=self._board, ids=self._ledger.cell_ids(), next_id=self._ledger.next_id,
                seed=self._seed, spawns=self._spawns, score=self._score, moves=self._moves,
                won=self._won, awaiting_choice=self._awaiting_choice,
                last_points=self._last_points,
            )
        )

    # --- playing ---------------------------------------------------------------------------

    def move(self, direction: str) -> bool:
        """Push the tiles one way; then a new tile appears. False, changing nothing, if the
        move is illegal or the win is awaiting the player's choice."""
        if direction not in _DIRECTION_SET:
            check_direction(direction)  # raises TypeError or ValueError
        if self._awaiting_choice:
            return False
        board = self._board
        moved = self._ledger.move(board, direction)
        if moved is None:
            return False
        new_board, points, empty_after = moved
        self._score += points
        self._last_points = points
        self._moves += 1
        if points >= _WIN_VALUE and not self._won and max_exponent(new_board) >= WIN_EXPONENT:
            self._won = self._awaiting_choice = True
        self._board = new_board
        self._spawn(empty_after)
        return True

    def keep_playing(self) -> None:
        """Answer the win banner with "keep playing": moves are accepted again."""
        self._awaiting_choice = False

    def legal_moves(self) -> tuple[str, ...]:
        """The directions `move` accepts now: those that change the board, none while the
        win is awaiting the player's choice."""
        if self._awaiting_choice:
            return ()
        return legal_directions(self._board)

    def _spawn(self, cells: tuple[int, ...]) -> None:
        """Put a new tile on one of the (empty) cells, as the game's next random draw decides."""
        index, exponent = spawn_choice(self._seed, self._spawns, len(cells))
        self._spawns += 1
        self._board = with_tile(self._board, cells[index], exponent)
        self._ledger.add(cells[index])

    # --- what the page shows ---------------------------------------------------------------

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """Tile values row by row, 0 for an empty cell."""
        return tile_values(self._board)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles on the board in reading order, each telling how the last move moved it."""
        return self._ledger.tiles(self._board)

    @property
    def score(self) -> int:
        return self._score

    @property
    def moves(self) -> int:
        """Legal moves made so far."""
        return self._moves

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def won(self) -> bool:
        """A tile of 2048 was made in this game."""
        return self._won

    @property
    def awaiting_choice(self) -> bool:
        """Won, and the player has not yet chosen to keep playing: moves are refused."""
        return self._awaiting_choice

    @property
    def status(self) -> Status:
        """PLAYING, WON (awaiting the player's choice) or OVER; see `Status`."""
        if self._awaiting_choice:
            return Status.WON
        return Status.PLAYING if legal_directions(self._board) else Status.OVER

    @property
    def over(self) -> bool:
        """No direction changes the board: every cell is full and no neighbours are equal."""
        return not legal_directions(self._board)

    @property
    def last_points(self) -> int:
        """Points scored by the last move (0 before the first)."""
        return self._last_points

    def __repr__(self) -> str:
        return f"<Game score={self._score} moves={self._moves} rows={self.rows}>"
