"""The ladder of tile values shown on the rules page, with the points each stands for."""

from __future__ import annotations

from dataclasses import dataclass

from engine.scoring import TILE_VALUES, merge_points


@dataclass(frozen=True)
class Rung:
    """One tile value and the merge points it stands for."""

    value: int
    exponent: int
    points: int


def tile_ladder() -> list[Rung]:
    """Every tile value from 2 up to 131072, with its exponent and merge points."""
    return [Rung(value, value.bit_length() - 1, merge_points(value)) for value in TILE_VALUES]
