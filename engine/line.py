"""One line of four cells sliding toward its first cell: the merge rules in one place.

A line is given as four exponents (0 = empty, n = a tile of value 2**n), listed from the edge
the tiles are pushed toward. Everything else in the engine (packed boards, tile identities) is
built on `slide_line`. The solver's slide tables cover every line of its own board at once, so
they are worked out with numpy (engine/solver/board.py) and checked against `slide_line` by
the tests (tests/solver/test_board.py).
"""

from functools import cache
from typing import NamedTuple

# What ends up in one cell after the slide: () empty, (a,) the tile from slot a,
# (a, b) the tile made by merging the tiles from slots a and b.
Origin = tuple[int, ...]


class LineSlide(NamedTuple):
    exponents: tuple[int, int, int, int]
    points: int
    origins: tuple[Origin, Origin, Origin, Origin]


@cache  # shared by every table of the engine: each distinct line is worked out once
def slide_line(exponents: tuple[int, int, int, int]) -> LineSlide:
    """Slide a line toward slot 0, merging each equal pair that meets, nearest the edge first."""
    tiles = [(slot, exponent) for slot, exponent in enumerate(exponents) if exponent]
    new_exponents: list[int] = []
    origins: list[Origin] = []
    points = 0
    index = 0
    while index < len(tiles):
        slot, exponent = tiles[index]
        if index + 1 < len(tiles) and tiles[index + 1][1] == exponent:
            new_exponents.append(exponent + 1)
            origins.append((slot, tiles[index + 1][0]))
            points += 1 << (exponent + 1)
            index += 2  # a merged tile never merges again in the same move
        else:
            new_exponents.append(exponent)
            origins.append((slot,))
            index += 1
    padding = 4 - len(new_exponents)
    return LineSlide(
        tuple(new_exponents + [0] * padding),
        points,
        tuple(origins + [()] * padding),
    )
