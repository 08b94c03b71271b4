"""The solver's review of a game: every position it was played from, the move played against
the solver's, and how much the move played gave away.

How much a move loses is the share of the position's value that it gives away: (value of the
solver's move - value of the move played) / value of the solver's move, in the solver's own
values (engine.solver.verdicts). A lost board is worth 0 to the solver and every live one more,
so the share runs from 0 (as good as the solver's move) to 1 (the game ends for sure, as far as
the solver looks): a move that lets the game end when a 2 comes (nine draws in ten) loses about
90%. A share reads the same in a 600-point game and a 60,000-point one; the network's values
are the points a strong player would still score, which a 600-point game never comes near, so
they are not what a review shows. The costliest moves are those that gave away the largest
share (when the values are points, none that gave away less than one point: its share is
noise), and each position is judged as a share of the game's best-judged position.

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
    losing `lost` (a share, see the module's docstring), from a position judged `judgement`."""

    number: int
    played: str
    best: str
    lost: float
    judgement: float


@dataclass(frozen=True)
class Analysis:
    """The review of a game's first `moves` moves: how many were the solver's own choice, the
    costliest ones, and the judgement of each position as (move number before it, judgement),
    at most JUDGEMENT_POINTS of them (module docstring)."""

    moves: int
    agreed: int
    costly: tuple[CostlyMove, ...]
    judgement: tuple[tuple[int, float], ...]

    def to_dict(self) -> dict:
        """Plain JSON types."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping) -> Analysis:
        """Read `to_dict`'s form back; ValueError (or TypeError, KeyError) for anything else.
        A review stored while reviews were kept in points (``in_points``, each costly move's
        ``points``) reads with its judgements as shares of its best-judged position."""
        judgement = tuple((int(number), float(value)) for number, value in data["judgement"])
        costly = [{name: value for name, value in move.items() if name != "points"}
                  for move in data["costly"]]
        if data.get("in_points"):
            top = max([value for _number, value in judgement]
                      + [float(move["judgement"]) for move in costly], default=0.0)
            judgement = tuple((number, _share(value, top)) for number, value in judgement)
            costly = [{**move, "judgement": _share(float(move["judgement"]), top)}
                      for move in costly]
        return cls(int(data["moves"]), int(data["agreed"]),
                   tuple(CostlyMove(**move) for move in costly), judgement)


def _share(value: float, top: float) -> float:
    return round(value / top, 6) if top > 0 else 0.0


def review_game(
    history: History, moves: int, evaluate: Evaluate, progress: Callable[[int], None],
    in_points: bool = False,
) -> Analysis:
    """Review the first `moves` moves of `history`; `progress(done)` is called after each
    position (it may raise to stop the review). `in_points`: the values `evaluate` gives are
    points."""
    values: list[float] = []  # each position's value: its best move's
    lost_moves: list[tuple[float, int, str, str]] = []  # share given away, index, played, best
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
            if not in_points or best_value - played_value >= LEAST_LISTED_POINTS:
                lost_moves.append((share_given_away(best_value, played_value), index,
                                   step.direction, best))
        progress(index + 1)
    top = max(values, default=0.0)
    judged = [_share(value, top) for value in values]
    costliest = sorted(lost_moves, reverse=True)[:COSTLY_LISTED]
    costly = tuple(CostlyMove(index + 1, played, best, lost, judged[index])
                   for lost, index, played, best in costliest)
    return Analysis(len(values), agreed, costly, judgement_line(judged))


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
