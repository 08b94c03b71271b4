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


# Both settings score their leaves with the network, which played better than the heuristic at
# each setting's time over whole games on fixed seeds (bench/solver_strength.py; the current
# figures in docs/solver.md, every run with every shipped network in docs/notebook/). The
# network's leaves cost about 20 times the heuristic's (32 scattered look-ups in 268 MB), so it
# looks fewer moves ahead: "fast" 3, and 4 once the board holds 8 different tiles (the deepest
# within fast's 5 ms median and 25 ms p95 of CPU a move: 5 from 10 tiles went over the p95);
# "strong" 5, and 6 from 10 tiles (one move deeper played no better, at twice the time). The
# heuristic's depths were tuned by measuring games: for the same time, a cut-off of 1e-3 with a
# deeper search played better than 1e-4 with a shallower one. A heuristic position takes 0.6 to
# 0.8 microseconds here (bench/solver_kernel.py), so the heuristic at "strong"'s node limit
# costs about 0.32 s at most. A network position costs about 20 times as much, but "strong"'s
# depth ends its searches long before its node limit, and each setting's time budget is many
# times its moves' 95th percentile: the strength runs count the moves a budget cut, and none has.
SETTINGS: dict[str, Setting] = {
    setting.name: setting
    for setting in (
        Setting("fast", 3, 4, 4, 1e-3, 20_000, 1.0, "network"),
        Setting("strong", 5, 6, 4, 1e-3, 400_000, 5.0, "network"),
    )
}

# The other evaluation at each setting's time, kept to measure against it side by side
# (bench/solver_strength.py --compare fast|strong). At "strong" the network looks 5 moves ahead,
# and 6 from 10 different tiles: on 306 positions of a "fast" game (every 40th of its first
# 7,500 moves and of its moves from 6,000 on) 28-30 ms median and 58-60 ms p95 of CPU a move,
# against 38-45 and 122-135 ms for the heuristic 5 to 11 ahead; 4 ahead and 5 from 9 tiles
# took 9-12 ms.
ALTERNATIVES: dict[str, Setting] = {
    "fast": Setting("heuristic-fast", 4, 8, 4, 1e-3, 20_000, 1.0),
    "strong": Setting("heuristic-strong", 5, 11, 1, 1e-3, 400_000, 5.0),
}


def at_time_of(name: str, evaluation: str) -> Setting:
    """The setting of SETTINGS named `name`, or its alternative, whichever scores its leaves
    with `evaluation` ("heuristic" or "network")."""
    return next(setting for setting in (SETTINGS[name], ALTERNATIVES[name])
                if setting.evaluation == evaluation)
