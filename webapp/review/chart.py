"""Geometry of a review's chart: the solver's judgement of each position over the whole game,
the costly moves marked. Numbers only; the SVG markup is templates/review/_chart.html."""

from __future__ import annotations

import math
from dataclasses import dataclass

from webapp.charts import Frame, Tick
from webapp.review.analysis import Analysis

# The left margin holds the widest tick label: "150 tys." when the values are points.
FRAME = Frame.with_margins(400, 180, left=56, right=10, top=10, bottom=26)
TICKS = (0.0, 0.5, 1.0)


@dataclass(frozen=True)
class Mark:
    """A costly move, drawn on the position it was played from; `points` it gave away when the
    review is in points (else None)."""

    number: int
    lost: float
    x: float
    y: float
    points: float | None = None


@dataclass(frozen=True)
class ReviewChart:
    """Everything the template draws: the judgement's line, the marks and the axes."""

    frame: Frame
    line: str  # the polyline's points, "x,y x,y ..."
    marks: tuple[Mark, ...]
    ticks: tuple[Tick, ...]
    moves: int
    in_points: bool = False  # the ticks are points, else shares of the best-judged position


def round_scale(top: float) -> float:
    """The top of a points axis: `top` rounded up to a multiple of half its leading power of
    ten (183,412 -> 200,000; 101,000 -> 150,000), so the ticks read as round numbers."""
    if top <= 0:
        return 1.0
    step = 10 ** math.floor(math.log10(top)) / 2
    return math.ceil(top / step) * step


def review_chart(analysis: Analysis) -> ReviewChart:
    """The judgement against the move number: a share of the best-judged position (0 to 1), or
    with points, the points expected from each position on (0 to a round number above them)."""
    span = max(analysis.moves - 1, 1)
    judged = [value for _move, value in analysis.judgement] + [
        move.judgement for move in analysis.costly]
    scale = round_scale(max(judged, default=0.0)) if analysis.in_points else 1.0

    def x(move: int) -> float:
        return round(FRAME.left + FRAME.plot_width * move / span, 2)

    return ReviewChart(
        frame=FRAME,
        line=" ".join(f"{x(move)},{FRAME.y(value / scale)}" for move, value in analysis.judgement),
        marks=tuple(Mark(move.number, move.lost, x(move.number - 1),
                         FRAME.y(move.judgement / scale), move.points)
                    for move in analysis.costly),
        ticks=tuple(Tick(share * scale, FRAME.y(share)) for share in TICKS),
        moves=analysis.moves,
        in_points=analysis.in_points,
    )
