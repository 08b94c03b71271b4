"""Geometry of the solver strength bar chart: numbers only, the SVG markup is a template."""

from __future__ import annotations

from dataclasses import dataclass

from webapp.charts import Frame, Tick
from webapp.pages.strength_report import StrengthReport

FRAME = Frame.with_margins(400, 240, left=44, right=8, top=12, bottom=30)
GROUP_GAP = 0.25  # share of a group's width left empty between groups
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True)
class Bar:
    """One bar: the share of games in which `setting` reached `tile`."""

    setting: str
    series: int
    tile: int
    share: float
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Group:
    """The label under one tile's group of bars."""

    tile: int
    x: float


@dataclass(frozen=True)
class Chart:
    """Everything the template needs to draw the chart (ticks at shares of the games)."""

    frame: Frame
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    groups: tuple[Group, ...]


def strength_chart(report: StrengthReport) -> Chart:
    """Grouped bars: one group per tile value, one bar per setting, height = share of games."""
    tiles = report.tiles
    group_width = FRAME.plot_width / max(len(tiles), 1)
    bar_width = group_width * (1 - GROUP_GAP) / len(report.settings)

    bars = []
    for t, tile in enumerate(tiles):
        first_x = FRAME.left + t * group_width + group_width * GROUP_GAP / 2
        for s, setting in enumerate(report.settings):
            share = setting.reached.get(tile, 0.0)
            height = round(share * FRAME.plot_height, 2)
            bars.append(Bar(setting.name, s + 1, tile, share, round(first_x + s * bar_width, 2),
                            round(FRAME.bottom - height, 2), round(bar_width, 2), height))
    return Chart(
        frame=FRAME,
        bars=tuple(bars),
        ticks=tuple(Tick(share, FRAME.y(share)) for share in TICKS),
        groups=tuple(Group(tile, round(FRAME.left + (t + 0.5) * group_width, 2))
                     for t, tile in enumerate(tiles)),
    )
