"""The built-in 2048 solver: expectimax search with a heuristic evaluation.

Boards are given as the game shows them: 4 rows of 4 tile values, 0 for an empty cell.

>>> from engine import solver
>>> solver.choose([[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
'left'
>>> sorted(solver.evaluate_moves([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 0]]))
['down', 'right']
>>> solver.choose([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]) is None
True

- `choose(rows, setting="fast")`: the best direction ("up", "down", "left", "right"), or None
  when no move is legal.
- `evaluate_moves(rows, setting="fast")`: a value per legal direction, higher is better; values
  are only comparable within one call.
- `SETTINGS`: the named settings ("fast" for hints and auto-play, "strong" for best play).
- `warm_up()`: build the tables and load the compiled search; call once at start-up.
A malformed board or an unknown setting raises ValueError.

Same position and setting, same answer: the depth is decided by the board and the setting's
node limit, not by the clock; the per-move time budget only cuts a search short on a machine
much slower than usual. Tiles up to 131072 are handled exactly (5 bits per cell).

Modules: board (encoding and slides), heuristic (board evaluation), search (compiled
expectimax), settings (named settings), api (validation and the functions above).
"""

from engine.solver.api import choose, evaluate_moves, warm_up
from engine.solver.settings import SETTINGS, Setting

__all__ = ["SETTINGS", "Setting", "choose", "evaluate_moves", "warm_up"]
