"""A board as a page draws it: where the game stands, and each tile with how the last move
moved it (the two tiles a merge joined come first, leaving, then the tile they made)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine import Game, Tile
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
    board."""

    status: str
    label: str
    tiles: tuple[DrawnTile, ...]


def _drawn(tile: Tile, leaving: bool) -> DrawnTile:
    return DrawnTile(tile.id, tile.value, tile.row, tile.col, tile.previous or None, tile.is_new,
                     bool(tile.merged_from), leaving)


def board_view(game: Game) -> BoardView:
    """The board of `game`, as its page draws it."""
    tiles: list[DrawnTile] = []
    for tile in game.tiles:
        if tile.merged_from:
            tiles += (_drawn(part, True) for part in tile.merged_from)
        tiles.append(_drawn(tile, False))
    return BoardView(str(game.status), board_label(_("Board"), game.rows), tuple(tiles))
