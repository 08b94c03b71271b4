"""The solver's review of a game: every position it was played from, the move played against
the solver's, and how much the move played gave away.

How much a move loses is the share of the position's value that it gives away: (value of the
solver's move - value of the move played) / value of the solver's move, in the solver's own
values (engine.solver.verdicts). A lost board is worth 0 to the solver and every live one more,
so the share runs from 0 (as good as the solver's move) to 1 (the game ends for sure, as far as
the solver looks): a move that lets the game end when a 2 comes (nine draws in ten) loses about
90%. When the solver's values are points (`in_points`: its network estimates the points still
to come), a move also loses the difference itself, in expected points: the costliest moves are
those that gave away the most points, and the judgement of a position is its value, the points
expected from there on. Otherwise the costliest are those that gave away the largest share, and
the judgement is a share of the game's best-judged position.

Nothing here knows the web: `review_game` takes the history and a function that evaluates a
board, and reports its progress through a callback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass

from engine import History
from engine.solver.verdicts import share_given_away

#: Most moves a review lists, costliest first (any move that lost something may be listed).
COSTLY_LISTED = 10
#: In points, a move giving away less than one point is not listed (it would read "−0 points").
LEAST_LISTED_POINTS = 1.0
#: Most points of the judgement's line: a long game is drawn at the worst position of each stretch.
JUDGEMENT_POINTS = 240

Evaluate = Callable[[Sequence[Sequence[int]]], Mapping[str, float]]


@dataclass(frozen=True)
class CostlyMove:
    """Move `number` (1 is the first) played `played` where the solver would have played `best`,
    losing `lost` (a share, see the module's docstring) and, in points, `points` (None when the
    values are not points), from a position judged `judgement`."""

    number: int
    played: str
    best: str
    lost: float
    judgement: float
    points: float | None = None


@dataclass(frozen=True)
class Analysis:
    """The review of a game's first `moves` moves: how many were the solver's own choice, the
    costliest ones, and the judgement of each position as (move number before it, judgement),
    at most JUDGEMENT_POINTS of them; `in_points` says the judgements and losses are points
    (module docstring). Reviews stored before there were points read as not in points."""

    moves: int
    agreed: int
    costly: tuple[CostlyMove, ...]
    judgement: tuple[tuple[int, float], ...]
    in_points: bool = False

    def to_dict(self) -> dict:
        """Plain JSON types."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping) -> Analysis:
        """Read `to_dict`'s form back; ValueError (or TypeError, KeyError) for anything else."""
        costly = tuple(CostlyMove(**move) for move in data["costly"])
        judgement = tuple((int(number), float(share)) for number, share in data["judgement"])
        return cls(int(data["moves"]), int(data["agreed"]), costly, judgement,
                   bool(data.get("in_points", False)))


def review_game(
    history: History, moves: int, evaluate: Evaluate, progress: Callable[[int], None],
    in_points: bool = False,
) -> Analysis:
    """Review the first `moves` moves of `history`; `progress(done)` is called after each
    position (it may raise to stop the review). `in_points`: the values `evaluate` gives are
    points."""
    values: list[float] = []  # each position's value: its best move's
    lost_moves: list[tuple[float, int, str, str, float]] = []  # cost, index, played, best, share
    agreed = 0
    for index, step in enumerate(history.walk()):
        if index == moves:
            break
        judged = evaluate(step.rows)
        best = max(judged, key=judged.__getitem__)
        best_value, played_value = judged[best], judged[step.direction]
        values.append(best_value)
        if played_value >= best_value:
            agreed += 1
        elif best_value > 0:  # else every move loses for sure: nothing to choose between
            lost = share_given_away(best_value, played_value)
            cost = best_value - played_value if in_points else lost
            if not in_points or cost >= LEAST_LISTED_POINTS:
                lost_moves.append((cost, index, step.direction, best, lost))
        progress(index + 1)
    top = max(values, default=0.0)
    judged = values if in_points else [value / top if top > 0 else 0.0 for value in values]
    costliest = sorted(lost_moves, reverse=True)
    costly = tuple(
        CostlyMove(index + 1, played, best, lost, round(judged[index], 6),
                   round(cost, 1) if in_points else None)
        for cost, index, played, best, lost in costliest[:COSTLY_LISTED]
    )
    return Analysis(len(values), agreed, costly, judgement_line(judged), in_points)


def judgement_line(judged: list[float]) -> tuple[tuple[int, float], ...]:
    """min(len(judged), JUDGEMENT_POINTS) points (move number, judgement): the game cut into
    that many stretches of near-equal length, each drawn at its lowest judgement."""
    count = min(len(judged), JUDGEMENT_POINTS)
    points = []
    for stretch in range(count):
        first, end = stretch * len(judged) // count, (stretch + 1) * len(judged) // count
        lowest = min(range(first, end), key=judged.__getitem__)
        points.append((lowest, round(judged[lowest], 6)))
    return tuple(points)
