"""What the values of a position's moves say to a player.

With the network a move's value is the points it scores plus the points the network expects
after it, so the best value minus a move's value is the expected points that move gives away
against the best. The heuristic's values are in no unit a player knows (each board carries an
offset of tens of millions, and a lost board is worth 0): of them a player is told only whether
a move is the best, close to it, or risky, from the share of the position's value it gives
away (a move that lets the game end at the next tile with probability p gives away about p).

>>> verdict(100.0, 100.0), verdict(100.0, 99.5), verdict(100.0, 90.0)
('best', 'close', 'risky')
"""

from collections.abc import Mapping

from engine.solver.settings import Setting

BEST, CLOSE, RISKY = "best", "close", "risky"
# Giving away 1% of the position's value is risky: in the heuristic's values that is about what
# one more chance in a hundred of losing the game at the next tile costs. Of the moves that were
# not the best on 94 of the kernel bench's positions ("fast"), a quarter gave away more than
# 0.47% and a tenth more than 1.4%.
RISKY_SHARE = 0.01


def in_points(setting: Setting) -> bool:
    """Whether the setting's values are points (its leaves are the network's)."""
    return setting.evaluation == "network"


def share_given_away(best: float, value: float) -> float:
    """The share of the position's value (its best move's) a move of `value` gives away: 0 for
    the best, 1 for a move that loses for sure; 0 when every move loses for sure."""
    return (best - value) / best if best > 0 else 0.0


def verdict_of_share(share: float) -> str:
    """"best" (nothing given away), "close" or "risky" (RISKY_SHARE or more)."""
    if share <= 0:
        return BEST
    return RISKY if share >= RISKY_SHARE else CLOSE


def verdict(best: float, value: float) -> str:
    """The verdict on a move of `value` where the best move is worth `best`."""
    return verdict_of_share(share_given_away(best, value))


def points_given_away(values: Mapping[str, float]) -> dict[str, float]:
    """Per direction, how far its value falls behind the best (expected points with the
    network), best first."""
    best = max(values.values(), default=0.0)
    ranked = sorted(values.items(), key=lambda item: item[1], reverse=True)
    return {direction: best - value for direction, value in ranked}
