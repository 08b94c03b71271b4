"""The built-in 2048 solver: expectimax search, its leaves scored by a learned n-tuple network
(both settings: it played better than the hand-written heuristic at each setting's time; the
heuristic stays, to measure the network against).

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
- `Solver(cache_dir, max_searches=2)`: the object behind them (the functions use one shared
  instance); its `search(rows, setting)` also tells the depth reached and what stopped it.
  `default_cache_dir()` is where the shared instance keeps its tables ($SOLVER_CACHE_DIR), and
  numba the compiled search (under `compiled/`, see locations.py; $NUMBA_CACHE_DIR instead).
A malformed board or an unknown setting raises ValueError; a missing or invalid weights file
raises weights_file.WeightsError (a ValueError) when the Solver is made (a setting of SETTINGS
plays with the network), before any move.

Unlike the rest of `engine/` (standard library only), this package needs numpy and numba: the
search is compiled, and releases the GIL while it runs, so searches in several threads run in
parallel.

Same position and setting, same answer: the depth is decided by the board and the setting's
node limit, not by the clock, and nothing carries over from one search to the next. The time
budget is checked only between deepening passes; an answer can differ only when the passes
before the last one took longer than the budget in wall-clock time (see settings.py for how far
that is from normal). Tiles up to 131072 are handled exactly (5 bits per cell).

Modules: board (5-bit encoding and slides), ntuple (the network's evaluation), weights_file
(loading and checking the shipped weights, weights/ntuple.npz), heuristic (the hand-written
evaluation the settings are measured against), tables (building and keeping the line
tables), search (compiled expectimax), cache (transposition caches and their pool), settings
(the named settings), verdicts (what the values say to a player: points given away, or best /
close / risky), solver (the Solver: deepening within the limits), locations (where the
tables and the compiled code are kept), api (the shared Solver
and the functions above).
"""

from engine.solver import locations

locations.use_for_numba()  # before any compiled module is imported

from engine.solver.api import choose, default_solver, evaluate_moves, warm_up  # noqa: E402
from engine.solver.locations import default_cache_dir  # noqa: E402
from engine.solver.settings import SETTINGS, Setting  # noqa: E402
from engine.solver.solver import Search, Solver  # noqa: E402

__all__ = ["SETTINGS", "Search", "Setting", "Solver", "choose", "default_cache_dir",
           "default_solver", "evaluate_moves", "warm_up"]
