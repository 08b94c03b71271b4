"""Reading the board out of a page or a fragment, as the page's script sees it."""

from __future__ import annotations

import re

TILE_ELEMENT = re.compile(r'<div class="tile"([^>]*)>')
ATTRIBUTE = re.compile(r'data-([\w-]+)(?:="([^"]*)")?')


def tiles_drawn(html: str) -> list[dict[str, str]]:
    """Every tile element, in order, as its data attributes (a bare flag reads as "")."""
    return [{name: value for name, value in ATTRIBUTE.findall(attributes)}
            for attributes in TILE_ELEMENT.findall(html)]


def shown_rows(html: str) -> tuple[tuple[int, ...], ...]:
    """The board a fragment or page shows (the tiles leaving a merge left out)."""
    rows = [[0] * 4 for _ in range(4)]
    for tile in tiles_drawn(html):
        if "leaving" not in tile:
            rows[int(tile["row"])][int(tile["col"])] = int(tile["value"])
    return tuple(tuple(row) for row in rows)
