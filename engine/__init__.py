"""The rules of 2048, and nothing else: no web, no drawing, standard library only.

A game is played on a 4x4 board, in four directions:

>>> import engine
>>> engine.DIRECTIONS
('up', 'down', 'left', 'right')

`slide` is the deterministic part of a move (no new tile): the board afterwards and the points.

>>> engine.slide([[4, 4, 4, 4], [4, 4, 4, 0], [2, 0, 0, 2], [256, 256, 0, 0]], "left")
(((8, 8, 0, 0), (8, 4, 0, 0), (4, 0, 0, 0), (512, 0, 0, 0)), 540)

A `Game` adds the rest: seeded spawns, the score, the win at the first 2048 and the end.

>>> game = engine.Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]], seed=7)
>>> game.legal_moves()
('up', 'down', 'left', 'right')
>>> game.move("left")
True
>>> game.rows[0][0], game.score, game.last_points, game.status
(2048, 2048, 2048, <Status.WON: 'won'>)
>>> game.move("right")  # refused until the player answers the win banner
False
>>> game.keep_playing()
>>> game.move("right")
True
>>> game.status
<Status.PLAYING: 'playing'>

Every move reports what happened to each tile, for animation. The merged 2048 above has a new
id and remembers the two tiles it came from; the tile that just appeared is marked new:

>>> game = engine.Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]], seed=7)
>>> game.move("left")
True
>>> merged = next(tile for tile in game.tiles if tile.value == 2048)
>>> [(parent.id, parent.previous) for parent in merged.merged_from], merged.id
([(1, (0, 0)), (2, (0, 1))], 4)
>>> sum(tile.is_new for tile in game.tiles)
1

`game.position` is the game now as a value: two games in equal positions play on alike. Same
seed and same moves, same game, also through a save and restore:

>>> first, second = engine.Game.new(seed=42), engine.Game.new(seed=42)
>>> for direction in ("left", "up", "right", "down"):
...     _ = first.move(direction)
...     second = engine.Game.from_saved(second.to_saved())
...     _ = second.move(direction)
>>> first.position == second.position
True
>>> first.position.moves, first.position.rows == first.rows
(3, True)

Games may share a start and still deal their own tiles after it: `opening` seeds the first
two tiles only (the daily game gives every player the day's start this way).

>>> first, second = (engine.Game.new(seed, opening=2026) for seed in (1, 2))
>>> first.rows == second.rows == engine.Game.new(seed=2026).rows
True
>>> first.move("left"), second.move("left")
(True, True)
>>> first.rows == second.rows
False

Every move is recorded. `undo` takes the last one back exactly, the spawn counter included, so
the same move then brings the same new tile:

>>> game = engine.Game.new(seed=42)
>>> game.move("left"), game.move("right")
(True, True)
>>> after = game.position
>>> game.undo(), game.moves
(True, 1)
>>> game.move("right") and game.position == after
True

Undoing the winning merge takes the win back; making 2048 again asks again:

>>> won = engine.Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]], seed=7)
>>> won.move("left"), won.status
(True, <Status.WON: 'won'>)
>>> won.undo(), won.won, won.status
(True, False, <Status.PLAYING: 'playing'>)

`game.history` is every move since the start, an immutable `History`. `Game.replay` gives the
game after any number of its moves, `walk` each move with the rows before it:

>>> history = game.history
>>> len(history), history.directions(), history.start == engine.Game.new(seed=42).position
(2, ('left', 'right'), True)
>>> engine.Game.replay(history, 1).moves, engine.Game.replay(history).position == game.position
(1, True)
>>> [(step.rows[0], step.direction) for step in history.walk()]
[((0, 0, 2, 0), 'left'), ((2, 0, 0, 0), 'right')]

`to_saved` is a game's one saved form: the whole game in a dict of plain JSON types, its history
(the moves at 2 bits each, a checkpoint every 1000 moves) with the position now as the
history's end. It is what a store keeps, and loading it unpacks no move. A loaded game goes on
recording into its history, and undo reaches past the load:

>>> whole = game.to_saved()
>>> whole["count"], whole["moves"], sorted(whole["end"])
(2, 'Dg==', ['awaiting_choice', 'last_points', 'tiles'])
>>> restored = engine.Game.from_saved(whole)
>>> restored.position == game.position and restored.history == game.history
True
>>> restored.undo(), restored.undo(), restored.undo()
(True, True, False)
>>> restored.position == engine.Game.new(seed=42).position
True

Anything `to_saved` never wrote is refused with a ValueError that names what is wrong:

>>> engine.Game.from_saved({**whole, "end": {"tiles": whole["end"]["tiles"]}})
Traceback (most recent call last):
...
ValueError: end keys: missing 'awaiting_choice', 'last_points'

A history whose stored bits changed still loads, but no longer replays to its game: undo and
replay raise `DamagedHistory` (a ValueError) and change nothing, and `sound_part()` replays the
whole history to give the game up to its last point that checks out (here its start):

>>> damaged = engine.Game.from_saved({**whole, "moves": "Cg=="})
>>> damaged.undo()
Traceback (most recent call last):
...
engine.history.DamagedHistory: move 2 of the history does not lead to the game
>>> damaged.moves, damaged.sound_part().moves, game.sound_part().position == game.position
(2, 0, True)

Bad input is refused before anything changes:

>>> game.move("sideways")
Traceback (most recent call last):
...
ValueError: unknown direction 'sideways'; expected one of ('up', 'down', 'left', 'right')

Modules: `directions`, `line` (the merge rules on one line), `board` (the packed board and
its cached tables), `rng` (seeded spawns), `tiles` (tile identities), `validation` (checked
input), `position` (a game's fields, listed once), `history` (the recorded moves),
`history_codec` (the packed parts of the saved form), `saved_game` (a whole game in its one
saved form, documented there), `legacy` (the older forms, read for old records), `game` (the
`Game` class), `scoring` (the points a tile stands for).
"""

from collections.abc import Sequence

from engine import board as _board
from engine import validation as _validation
from engine.directions import DIRECTIONS, check_direction
from engine.game import Game, Status
from engine.history import DamagedHistory, History
from engine.position import Position
from engine.tiles import Tile

__all__ = ["DIRECTIONS", "DamagedHistory", "Game", "History", "Position", "Status", "Tile",
           "slide"]


def slide(rows: Sequence[Sequence[int]], direction: str) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Push the tiles of `rows` in `direction`, without spawning: (new rows, points scored)."""
    check_direction(direction)
    board = _board.pack(_validation.exponent_rows(rows))
    new_board, points = _board.MOVES[direction](board)
    return _board.tile_values(new_board), points
