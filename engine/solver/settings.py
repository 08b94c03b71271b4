"""Named search settings: how deep to look, where to cut off, and the work and time limits.

The depth grows with the number of distinct tiles on the board: a board with many different
tiles is harder to keep in order, and it usually has few empty cells, so each move of look-ahead
costs less. Moves are decided by depth, cut-off and node limit alone (deterministic). The time
budget is checked only between deepening passes (solver.py): it can change an answer only when
the finished passes took longer than the budget in wall-clock time. Each budget is set far
beyond the time its node limit takes, so that happens only on a machine tens of times slower
than the one measured (see the figures below).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    """One way to run the search.

    The depth counts player moves, the move being chosen included: distinct tiles minus
    `depth_offset`, kept within min_depth..max_depth.
    """

    name: str
    min_depth: int
    max_depth: int
    depth_offset: int
    probability_cutoff: float  # branches less likely than this are scored by the evaluation
    node_limit: int  # most positions expanded for one move, all deepening passes together
    time_budget: float  # seconds; no deeper pass starts once this much time has passed
    evaluation: str = "heuristic"  # what scores the leaves: "heuristic" or "network"

    def depth_for(self, distinct_tiles: int) -> int:
        """Search depth for a board holding this many different tile values."""
        return max(self.min_depth, min(self.max_depth, distinct_tiles - self.depth_offset))


# The network's settings, chosen by measuring CPU time per move over one game's positions and
# strength over whole games (bench/solver_strength.py). With the network a position costs about
# 5 microseconds (its leaves are dearer than the heuristic's). "fast" looks 3 moves ahead, 4 and
# then 5 once the board holds 9 and 10 different tiles (it then has few empty cells); its 4,000
# positions take about 20 ms at most, and its 1 s budget is 50 times that. "strong" looks 5
# moves ahead, 6 from 10 different tiles; its 100,000 positions take about 0.5 s, under a 5 s
# budget. Median CPU time per move, one game's positions on this machine with other jobs
# running: "fast" 2.3 ms (p95 14 ms), "strong" 37 ms (p95 91 ms).
SETTINGS: dict[str, Setting] = {
    setting.name: setting
    for setting in (
        Setting("fast", 3, 5, 5, 1e-3, 4_000, 1.0, "network"),
        Setting("strong", 5, 6, 4, 1e-3, 100_000, 5.0, "network"),
    )
}

# The heuristic's fast setting, kept to measure the network against (bench/solver_strength.py
# --compare). For the heuristic a position costs about 1 microsecond, so its 20,000 positions
# take about 20 ms at most. Tuned by measuring games: for the same time, a cut-off of 1e-3 with
# a deeper search played better than 1e-4 with a shallower one.
HEURISTIC_FAST = Setting("heuristic-fast", 4, 8, 4, 1e-3, 20_000, 1.0)
