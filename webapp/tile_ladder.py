"""The ladder of tile values, from 2 to the largest a 4×4 board can hold."""

from __future__ import annotations

from dataclasses import dataclass

SMALLEST_TILE = 2
LARGEST_TILE = 131072


@dataclass(frozen=True)
class Rung:
    """One tile value and the merge points it stands for."""

    value: int
    exponent: int
    points: int


def merge_points(value: int) -> int:
    """Points scored building a tile of `value` from 2s: (k - 1) * 2**k for value 2**k.

    >>> merge_points(2), merge_points(4), merge_points(2048)
    (0, 4, 20480)
    """
    if value < SMALLEST_TILE or value & (value - 1):
        raise ValueError(f"not a tile value: {value!r}")
    exponent = value.bit_length() - 1
    return (exponent - 1) * value


def tile_ladder(top: int = LARGEST_TILE) -> list[Rung]:
    """Every tile value from 2 up to `top`, with its exponent and merge points."""
    rungs = []
    value = SMALLEST_TILE
    while value <= top:
        rungs.append(Rung(value, value.bit_length() - 1, merge_points(value)))
        value *= 2
    return rungs
