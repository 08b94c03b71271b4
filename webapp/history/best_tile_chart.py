"""Geometry of the chart on the list of games: the best tile of each game, oldest first, on a
scale of powers of two, and the tiles as its title speaks them. The SVG markup is
templates/history/_best_tile_chart.html."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from webapp.charts import Frame, Tick
from webapp.i18n import spoken_list
from webapp.store.game_record import GameSummary

FRAME = Frame.with_margins(400, 200, left=44, right=8, top=10, bottom=12)
BAR_GAP = 0.2  # share of each game's width left empty
LOWEST_TOP_EXPONENT = 11  # the scale reaches 2048 at least
MOST_TICKS = 6
MOST_SLOT = 40.0  # a few games get bars of a bar's width, not a third of the chart each


@dataclass(frozen=True)
class Bar:
    """One game's bar: its best tile and where it is drawn."""

    game_id: str
    tile: int
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class BestTileChart:
    """Everything the template draws: a bar per game, ticks at tile values, and the best tiles
    listed the request's language's way for the title a screen reader speaks."""

    frame: Frame
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    spoken_tiles: str


def best_tile_chart(games: Sequence[GameSummary]) -> BestTileChart:
    """A bar per game in the order given; bar height counts the doublings to its best tile.
    Called while answering a request: the spoken list is in the request's language."""
    top_exponent = max([LOWEST_TOP_EXPONENT, *(game.best_tile.bit_length() - 1 for game in games)])

    def y(exponent: int) -> float:
        return FRAME.y(exponent / top_exponent)

    slot = min(FRAME.plot_width / max(len(games), 1), MOST_SLOT)
    bars = []
    for index, game in enumerate(games):
        top = y(game.best_tile.bit_length() - 1)
        bars.append(Bar(game.id, game.best_tile,
                        round(FRAME.left + (index + BAR_GAP / 2) * slot, 2), top,
                        round(slot * (1 - BAR_GAP), 2), round(FRAME.bottom - top, 2)))
    step = -(-top_exponent // MOST_TICKS)  # ceiling division
    ticks = tuple(Tick(2 ** exponent, y(exponent))
                  for exponent in range(top_exponent, 0, -step))
    return BestTileChart(FRAME, tuple(bars), ticks, spoken_list(bar.tile for bar in bars))
