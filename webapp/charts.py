"""What every chart of the site shares: the drawing's frame around its plot, and the plot's
horizontal grid lines. Geometry only; templates/_chart.html draws the shared parts, each
chart's module (strength_chart, best_tile_chart, review_chart) the rest."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Frame:
    """A drawing `width` by `height`, its plot between `left` and `right`, `top` and `bottom`."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float

    @classmethod
    def with_margins(cls, width: int, height: int, *, left: float, right: float, top: float,
                     bottom: float) -> Frame:
        """The frame whose plot leaves these margins inside the drawing."""
        return cls(width, height, left, width - right, top, height - bottom)

    @property
    def plot_width(self) -> float:
        return self.right - self.left

    @property
    def plot_height(self) -> float:
        return self.bottom - self.top

    def y(self, share: float) -> float:
        """The height of `share` of the plot: 0 at its bottom, 1 at its top."""
        return round(self.bottom - self.plot_height * share, 2)


@dataclass(frozen=True)
class Tick:
    """A grid line across the plot at height `y`, labelled with `value`."""

    value: float
    y: float
