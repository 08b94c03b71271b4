"""The built-in 2048 solver: expectimax search with a heuristic evaluation.

Boards are given as the game shows them: 4 rows of 4 tile values, 0 for an empty cell.

>>> from engine import solver
>>> solver.choose([[1024, 1024, 2, 4], [4, 2, 8, 16], [2, 8, 16, 32], [8, 16, 32, 0]])
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
node limit, not by the clock. The per-move time budget is a safety net that cuts a search short
only on a machine much slower than usual (then, and only then, answers may vary from run to
run). Tiles up to 131072 are handled exactly (5 bits per cell).

Modules: board (5-bit encoding and slides), heuristic (line scores, board evaluation), tables
(building and keeping the lookup tables), search (compiled expectimax), settings (the named
settings), api (validation, deepening within the limits, the functions above).
"""

from engine.solver.api import choose, evaluate_moves, warm_up
from engine.solver.settings import SETTINGS, Setting

__all__ = ["SETTINGS", "Setting", "choose", "evaluate_moves", "warm_up"]
