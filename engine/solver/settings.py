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
# each setting's time (bench/solver_strength.py; every run in bench/README.md): at
# "fast" over 50 games (--compare fast); at "strong" over 12 (seeds 1-12), with the network of
# 3,307,385 games, 16384 in 100% against the heuristic's 92%, 32768 in 17% as it, a mean score of
# 403,178 against 352,019, at 25 ms median of CPU a move against 43. One move deeper (6, and 7
# from 11 tiles) played no better: 16384 in 100%, 32768 in 8%, 384,019, at 53 ms. With the
# shipped network (3,811,892 games): 16384 in 92%, 32768 in 8%, 375,671, at 23 ms.
# The network's leaves cost about 20 times the heuristic's (32 scattered look-ups in 268 MB), so
# it looks fewer moves ahead: at "fast" 3, and 4 once the board holds 8 different tiles (over 50
# games with the network of 1,018,983 games: 3.9 ms median and 13.0 ms p95 of CPU a move, 16384
# in 54%; 4 only from 9 tiles took 1.6 and 8.6 ms and reached 16384 in 40%; 5 from 10 tiles
# within 40,000 positions, 1.7 and 25.5 ms, 46%; with the network of 2,141,418 games, 3.5 and
# 11.2 ms, 8192 in 98%, 16384 in 92%; with that of 2,809,838 games, 2.9 and 8.8 ms, 8192 in
# 100%, 16384 in 98%; with that of 3,307,385 games, 2.3 and 6.5 ms, the same shares; with the
# shipped one, of 3,811,892 games, 2.5 and 7.0 ms, 16384 in 96%). The
# heuristic's depths were tuned by measuring games: for the same time, a cut-off of 1e-3 with a
# deeper search played better than 1e-4 with a shallower one. A heuristic position takes 0.6 to
# 0.8 microseconds here (bench/solver_kernel.py, at load averages of 10 to 38), so the heuristic
# at "strong"'s node limit costs about 0.32 s at most. A network position costs about 20 times
# as much, but "strong"'s depth (5 or 6 moves) ends its searches long before its node limit: 60
# ms of CPU at the 95th percentile over its 12 games, none stopped by its 5 s budget.
# "fast"'s budget is over 70 times its moves' 95th percentile.
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
