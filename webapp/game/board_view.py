"""A board as a page draws it: where the game stands, and each tile with how the last move
moved it (the two tiles a merge joined come first, leaving, then the tile they made); for the
game's own page also where each tile goes in each legal direction, so a press moves the tiles
before the answer (static/js/slides.js reads them), and each move of a request of several.

The slides and steps are written compactly, one entry each, separated by spaces:
"direction:cells:merged" for a slide, "direction:cells:merged:new" for a step. `cells` has one
character a cell in reading order: the hex digit of the cell its tile goes to, "." for an empty
cell; `merged` (comma-separated, possibly none) and `new` are "<cell hex><value>" items: each
tile a merge makes, and the tile the move brought.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine import Game, Tile
from engine.slides import Slide
from webapp.i18n import board_label
from webapp.i18n import translate as _


class DrawnTile(NamedTuple):
    """One tile element: `origin` is the cell it slides from, `leaving` marks the two tiles a
    merge joined (drawn under the tile they made until it has popped). A named tuple: a board
    makes up to 24 of them an answer, each made in a tenth of a frozen dataclass's time, and
    partials/board.html unpacks it in this order."""

    id: int
    value: int
    row: int
    col: int
    origin: tuple[int, int] | None
    new: bool
    merged: bool
    leaving: bool


@dataclass(frozen=True)
class BoardView:
    """`status` is "playing", "won" or "over"; `label` is what a screen reader says for the
    board; `slides` and `steps` as the module says (empty where not drawn)."""

    status: str
    label: str
    tiles: tuple[DrawnTile, ...]
    slides: str = ""
    steps: str = ""


def _drawn(tile: Tile, leaving: bool) -> DrawnTile:
    return DrawnTile(tile.id, tile.value, tile.row, tile.col, tile.previous or None, tile.is_new,
                     bool(tile.merged_from), leaving)


def board_view(game: Game, playable: bool = False,
               steps: Sequence[tuple[str, Iterable[Tile]]] = ()) -> BoardView:
    """The board of `game`, as its page draws it; a `playable` one with its slides, and the
    `steps` (each move's direction and the tiles it left) of a request of several moves."""
    tiles: list[DrawnTile] = []
    for tile in game.tiles:
        if tile.merged_from:
            tiles += (_drawn(part, True) for part in tile.merged_from)
        tiles.append(_drawn(tile, False))
    slides = " ".join(_slide_text(direction, slide) for direction, slide in
                      game.slides().items()) if playable else ""
    return BoardView(str(game.status), board_label(_("Board"), game.rows), tuple(tiles), slides,
                     " ".join(_step_text(direction, moved) for direction, moved in steps))


_CELLS = "0123456789abcdef"


def _slide_text(direction: str, slide: Slide) -> str:
    cells = "".join("." if cell is None else _CELLS[cell] for cell in slide.destinations)
    merged = ",".join(f"{_CELLS[cell]}{value}" for cell, value in slide.merged)
    return f"{direction}:{cells}:{merged}"


def _step_text(direction: str, tiles: Iterable[Tile]) -> str:
    """A move as a slide (where each tile the move found went) and the tile it brought."""
    destinations: list[int | None] = [None] * 16
    merged, new = [], ""
    for tile in tiles:
        cell = tile.row * 4 + tile.col
        if tile.is_new:
            new = f"{_CELLS[cell]}{tile.value}"
            continue
        if tile.merged_from:
            merged.append((cell, tile.value))
        for part in tile.merged_from or (tile,):
            row, col = part.previous or (tile.row, tile.col)
            destinations[row * 4 + col] = cell
    return f"{_slide_text(direction, Slide(tuple(destinations), tuple(merged)))}:{new}"
