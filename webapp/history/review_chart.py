"""Geometry of a review's chart: the solver's judgement of each position over the whole game,
the costly moves marked. Numbers only; the SVG markup is templates/history/_review_chart.html."""

from __future__ import annotations

from dataclasses import dataclass

from webapp.history.analysis import Analysis

WIDTH, HEIGHT = 400, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 26
TICKS = (0.0, 0.5, 1.0)


@dataclass(frozen=True)
class Mark:
    """A costly move, drawn on the position it was played from."""

    number: int
    lost: float
    x: float
    y: float


@dataclass(frozen=True)
class Tick:
    value: float
    y: float


@dataclass(frozen=True)
class ReviewChart:
    """Everything the template draws: the judgement's line, the marks and the axes."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    line: str  # the polyline's points, "x,y x,y ..."
    marks: tuple[Mark, ...]
    ticks: tuple[Tick, ...]
    moves: int


def review_chart(analysis: Analysis) -> ReviewChart:
    """The judgement (a share of the best-judged position, 0 to 1) against the move number."""
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    span = max(analysis.moves - 1, 1)

    def x(move: int) -> float:
        return round(LEFT + (right - LEFT) * move / span, 2)

    def y(share: float) -> float:
        return round(bottom - (bottom - TOP) * share, 2)

    return ReviewChart(
        width=WIDTH, height=HEIGHT, left=LEFT, right=right, top=TOP, bottom=bottom,
        line=" ".join(f"{x(move)},{y(share)}" for move, share in analysis.judgement),
        marks=tuple(Mark(move.number, move.lost, x(move.number - 1), y(move.judgement))
                    for move in analysis.costly),
        ticks=tuple(Tick(value, y(value)) for value in TICKS),
        moves=analysis.moves,
    )
