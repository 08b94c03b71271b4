"""A game of 2048: the board, the score, the win and the end, with seeded spawns; its moves
recorded for undo and replay (see `history`)."""

from collections.abc import Iterator, Sequence
from enum import StrEnum

from engine import rng, saved_game, validation
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
from engine.history import CODES, DamagedHistory, History, LaterCheckpoint, Recording, Step
from engine.history_codec import Checkpoint
from engine.position import Position
from engine.rng import spawn_choice
from engine.slides import Slide, board_slides
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
    """One game in progress. Start one with `Game.new`, `Game.from_rows`, `Game.from_saved` or
    `Game.replay`."""

    __slots__ = (
        "_board", "_ledger", "_seed", "_spawns", "_score", "_moves",
        "_won", "_awaiting_choice", "_last_points", "_recording", "_checkpoint_at",
    )

    def __init__(self, position: Position, recording: Recording | None = None) -> None:
        """The game at `position` (checked by whoever made it), recording its moves into
        `recording` (a new one starting at `position` when None). The engine's own: start a
        game with one of the class methods."""
        self._board = position.board
        self._ledger = TileLedger(position.ids, position.next_id)
        self._seed = position.seed
        self._spawns = position.spawns
        self._score = position.score
        self._moves = position.moves
        self._won = position.won
        self._awaiting_choice = position.awaiting_choice
        self._last_points = position.last_points
        self._record_into(Recording(position) if recording is None else recording)

    # --- starting a game -------------------------------------------------------------------

    @classmethod
    def new(cls, seed: int | None = None, opening: int | None = None) -> "Game":
        """A new game: two starting tiles on two random cells (each a 2, or a 4 one time in ten).

        The first two tiles follow `opening` when it is given (a start several games share,
        such as a day's), every later tile the game's own `seed`.
        """
        seed = _seed_or_new(seed)
        first = seed if opening is None else validation.seed(opening)
        game = cls._fresh(board=0, ids=(0,) * 16, next_id=1, seed=first, score=0)
        game._spawn(empty_cells(game._board))
        game._spawn(empty_cells(game._board))
        game._seed = seed
        game._record_into(Recording(game.position))  # the history starts after the first tiles
        return game

    @classmethod
    def from_rows(
        cls, rows: Sequence[Sequence[int]], score: int = 0, seed: int | None = None
    ) -> "Game":
        """A game set up on the given tile values (0 = empty), e.g. to study a position.

        Checks the shape and values (see `validation`), at least two tiles and the score being
        a non-negative even int. A tile of 2048 or more means the game is already won (and not
        awaiting the player's choice); the next spawns follow `seed`.
        """
        exponent_rows = validation.exponent_rows(rows)
        validation.check_playable(exponent_rows)
        board = pack(exponent_rows)
        numbered = TileLedger.numbered(board)
        return cls._fresh(board, numbered.cell_ids(), numbered.next_id, _seed_or_new(seed),
                          validation.score(score), won=max_exponent(board) >= WIN_EXPONENT)

    @classmethod
    def from_saved(cls, data: object) -> "Game":
        """The game saved by `to_saved`, its history with it; ValueError if `data` is not a
        well-formed game (see `saved_game`). Games saved in the forms before it are read by
        `legacy`."""
        position, recording = saved_game.load(data)
        return cls(position, recording)

    @classmethod
    def replay(cls, history: History, moves: int | None = None) -> "Game":
        """The game after the first `moves` moves of `history` (all when None, 0 for its start).

        The game is as play left it, tile ids included; a move that follows a win implies the
        player chose to keep playing. ValueError if `moves` is out of range; DamagedHistory (a
        ValueError) if a recorded move is one the game refuses.
        """
        recording = Recording.of(history)
        count = recording.count
        moves = count if moves is None else validation.integer(moves, "moves")
        if not 0 <= moves <= count:
            raise ValueError(f"moves must be from 0 to {count}, not {moves}")
        return cls._replayed(recording, moves)

    @classmethod
    def _replayed(cls, recording: Recording, moves: int) -> "Game":
        """The game after the first `moves` moves of `recording`, from its nearest checkpoint."""
        position, played = recording.resume_point(moves)
        game = cls(position, recording.prefix(played))
        for _ in game._play_recorded(recording, played, moves):
            pass
        return game

    @classmethod
    def _fresh(cls, board: Board, ids: tuple[int, ...], next_id: int, seed: int, score: int,
               won: bool = False) -> "Game":
        """A game with no move made yet (the flags as a position starts them)."""
        return cls(Position(board=board, ids=ids, next_id=next_id, seed=seed, spawns=0,
                            score=score, moves=0, won=won))

    def to_saved(self) -> dict:
        """The whole game, its history with it, as one dict of plain JSON types (see
        `saved_game`): the game's one saved form, what a store keeps."""
        return saved_game.dump(self.position, self._recording)

    @property
    def position(self) -> Position:
        """The game now as a value (see `Position`): its board, tile ids, seed, counts, score
        and flags. Two games in equal positions play on alike."""
        return Position(
            board=self._board, ids=self._ledger.cell_ids(), next_id=self._ledger.next_id,
            seed=self._seed, spawns=self._spawns, score=self._score, moves=self._moves,
            won=self._won, awaiting_choice=self._awaiting_choice, last_points=self._last_points,
        )

    @property
    def history(self) -> History:
        """Every move since the game's start (`new`, `from_rows`, or wherever the saved game's
        history began)."""
        return self._recording.freeze()

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
        recording = self._recording
        recording.append(CODES[direction])
        if recording.count == self._checkpoint_at:
            recording.checkpoints.append(self._checkpoint())
            self._checkpoint_at += recording.every
        return True

    def keep_playing(self) -> None:
        """Answer the win banner with "keep playing": moves are accepted again. Not a move,
        and not recorded: a replay takes any move after a win to imply it."""
        self._awaiting_choice = False

    def undo(self) -> bool:
        """Take back the last move: board, score, move and spawn counts, last_points and tile
        ids are as before it, so the same move brings the same new tile again. False, changing
        nothing, at the start of the history.

        Undoing the winning merge takes the win back (making 2048 again asks again); a move
        taken back was made, so any win before it had been answered: never awaiting after an
        undo. The tiles come back without a last move to animate.

        DamagedHistory, changing nothing, if the replay to the move before refuses a move or
        its last move does not lead to this game (see `sound_part` for what is left).
        """
        count = self._recording.count
        if not count:
            return False
        before = Game._replayed(self._recording, count - 1)
        again = Game(before.position._replace(awaiting_choice=False))
        if not again.move(DIRECTIONS[self._recording.codes[-1]]) or not again._same_position(self):
            raise DamagedHistory(f"move {count} of the history does not lead to the game")
        for name in Game.__slots__:
            setattr(self, name, getattr(before, name))
        self._awaiting_choice = False
        self._ledger = TileLedger(before._ledger.cell_ids(), before._ledger.next_id)
        return True

    def replayed(self, moves: int) -> "Game":
        """The game after the first `moves` moves of its history, the replay checked on to the
        end of their stretch between two checkpoints: DamagedHistory unless it reaches the
        next checkpoint, or this game when the stretch is the last. Up to twice the work of
        `Game.replay`, which finds only a move the game refuses."""
        recording = self._recording
        count, every = recording.count, recording.every
        game = Game.replay(self.history, moves)
        if not moves:
            return game
        end = min(count, ((moves - 1) // every + 1) * every)
        onward = Game(game.position)
        for _ in onward._play_recorded(recording, moves, end):
            pass
        if end == count:
            reached = onward._same_position(self)
        else:
            cell_ids, next_id = onward._ledger.cell_ids(), onward._ledger.next_id
            reached = recording.checkpoint(end // every - 1) == Checkpoint(
                onward._board, onward._score, next_id, cell_ids)
        if not reached:
            raise DamagedHistory(f"the moves up to {end} do not lead where the game went")
        return game

    def sound_part(self) -> "Game":
        """The game after the longest sound part of its history, replayed from the start.

        All of it (a replayed copy of this game) when every recorded move is legal, every
        checkpoint is reached exactly and the last move reaches this game's position and score;
        otherwise the game at the last checkpoint the replay reached exactly, or at the
        history's start. It replays every move (10 µs each), where `undo` and `replay` check
        only what they replay, so it is what a game's score is proved by.
        """
        recording = self._recording
        replaying = Game(recording.start, Recording(recording.start, every=recording.every))
        sound = 0
        try:
            for index in range(len(recording.checkpoints)):
                for _ in replaying._play_recorded(recording, sound, sound + recording.every):
                    pass
                if replaying._recording.checkpoint(index) != recording.checkpoint(index):
                    raise DamagedHistory(f"checkpoint {index + 1} is not where the moves lead")
                sound += recording.every
            for _ in replaying._play_recorded(recording, sound, recording.count):
                pass
            if not replaying._same_position(self):
                raise DamagedHistory("the history does not lead to the game")
            return replaying
        except DamagedHistory:
            return Game._replayed(recording.prefix(sound), sound)

    def _same_position(self, other: "Game") -> bool:
        """The same position, score and counts (whether a win awaits an answer aside: the
        answer is not recorded)."""
        return (self.position._replace(awaiting_choice=False)
                == other.position._replace(awaiting_choice=False))

    def legal_moves(self) -> tuple[str, ...]:
        """The directions `move` accepts now: those that change the board, none while the
        win is awaiting the player's choice."""
        if self._awaiting_choice:
            return ()
        return legal_directions(self._board)

    def slides(self) -> dict[str, Slide]:
        """Where each tile goes in each direction `move` accepts now, before the new tile
        (see `engine.slides`)."""
        if self._awaiting_choice:
            return {}
        return board_slides(self._board)

    def _record_into(self, recording: Recording) -> None:
        self._recording = recording
        self._checkpoint_at = (recording.count // recording.every + 1) * recording.every

    def _checkpoint(self) -> LaterCheckpoint:
        return LaterCheckpoint(self._board, self._score, self._ledger.mark())

    def _play_recorded(self, recording: Recording, first: int, stop: int) -> Iterator[str]:
        """Play moves first + 1 to stop of `recording`, yielding each direction just before
        it is played; DamagedHistory at a move the game refuses."""
        for number, direction in enumerate(recording.directions(first, stop), first + 1):
            yield direction
            self._awaiting_choice = False  # a move after a win: the player kept playing
            if not self.move(direction):
                raise DamagedHistory(f"move {number} of the history is not legal here")

    def _spawn(self, cells: tuple[int, ...]) -> None:
        """Put a new tile on one of the empty `cells`, as the game's next random draw decides.

        Replays depend on the order of `cells`: reading order for the first tiles of a new
        game; after a move, line by line (rows from the top for left and right, columns from
        the left for up and down), each line from the edge the tiles were pushed toward.
        """
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
    def best_tile(self) -> int:
        """The highest tile on the board."""
        return max(max(row) for row in self.rows)

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


def walk(history: History) -> Iterator[Step]:
    """Each move of `history` with the rows before it (see `History.walk`)."""
    recording = Recording.of(history)
    game = Game._replayed(recording, 0)
    for direction in game._play_recorded(recording, 0, recording.count):
        yield Step(game.rows, direction)
