"""Geometry of a review's chart: the solver's judgement of each position over the whole game,
the costly moves marked. Numbers only; the SVG markup is templates/review/_chart.html."""

from __future__ import annotations

from dataclasses import dataclass

from webapp.charts import Frame, Tick
from webapp.review.analysis import Analysis

# The left margin holds the widest tick label ("100%", "100 %" in Polish).
FRAME = Frame.with_margins(400, 180, left=56, right=10, top=10, bottom=26)
TICKS = (0.0, 0.5, 1.0)


@dataclass(frozen=True)
class Mark:
    """A costly move, drawn on the position it was played from."""

    number: int
    lost: float
    x: float
    y: float


@dataclass(frozen=True)
class ReviewChart:
    """Everything the template draws: the judgement's line, the marks and the axes."""

    frame: Frame
    line: str  # the polyline's points, "x,y x,y ..."
    marks: tuple[Mark, ...]
    ticks: tuple[Tick, ...]  # shares of the best-judged position
    moves: int


def review_chart(analysis: Analysis) -> ReviewChart:
    """The judgement against the move number: a share of the best-judged position (0 to 1)."""
    span = max(analysis.moves - 1, 1)

    def x(move: int) -> float:
        return round(FRAME.left + FRAME.plot_width * move / span, 2)

    return ReviewChart(
        frame=FRAME,
        line=" ".join(f"{x(move)},{FRAME.y(value)}" for move, value in analysis.judgement),
        marks=tuple(Mark(move.number, move.lost, x(move.number - 1), FRAME.y(move.judgement))
                    for move in analysis.costly),
        ticks=tuple(Tick(share, FRAME.y(share)) for share in TICKS),
        moves=analysis.moves,
    )
