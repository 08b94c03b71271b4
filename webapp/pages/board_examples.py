"""Example positions drawn on the rules and strategy pages (the same in every language).

Only the position before a move is written down; the position after it is computed by
the engine, so a drawn example can never contradict the rules the game enforces.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import engine
from webapp.game.controls import SHOWN_DIRECTIONS, ShownDirection

Rows = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Example:
    """A position, and optionally the direction pushed from it."""

    before: Rows
    direction: str | None = None

    @cached_property
    def _slid(self) -> tuple[Rows, int]:
        if self.direction is None:
            return self.before, 0
        rows, points = engine.slide(self.before, self.direction)
        return tuple(tuple(row) for row in rows), points

    @property
    def after(self) -> Rows:
        """The position once the tiles have slid and merged (before the new tile appears)."""
        return self._slid[0]

    @property
    def shown_direction(self) -> ShownDirection | None:
        """The direction pushed, as the page shows it (its arrow and name)."""
        return SHOWN_DIRECTIONS[self.direction] if self.direction else None

    @property
    def points(self) -> int:
        """Points the move scores."""
        return self._slid[1]

    @property
    def changes(self) -> bool:
        """True when the direction is a legal move here."""
        return self.after != self.before


def _rows(text: str) -> Rows:
    """Parse a board written as four lines of four numbers, '.' for an empty cell."""
    rows = tuple(
        tuple(0 if cell == "." else int(cell) for cell in line.split())
        for line in text.strip().splitlines()
    )
    if len(rows) != 4 or any(len(row) != 4 for row in rows):
        raise ValueError(f"an example board needs 4 rows of 4 cells: {text!r}")
    return rows


def _example(text: str, direction: str | None = None) -> Example:
    return Example(_rows(text), direction)


RULES = {
    "setup": _example("""
        .  .  .  .
        .  2  .  .
        .  .  .  .
        .  .  4  .
    """),
    "move": _example("""
        .  2  .  2
        4  .  .  .
        .  .  8  .
        .  4  .  16
    """, "left"),
    "illegal": _example("""
        2  8  .  .
        4  .  .  .
        16 2  4  .
        .  .  .  .
    """, "left"),
    "merge": _example("""
        2   .   2   .
        .   512 .   512
        .   .   .   .
        .   .   .   .
    """, "left"),
    "once": _example("""
        4  4  4  4
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "left"),
    "edge": _example("""
        4  4  4  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "left"),
    "meet": _example("""
        2  8  .  .
        2  4  .  .
        .  .  .  .
        .  .  .  .
    """, "right"),
    "score": _example("""
        256 256 .  .
        .   .   .  .
        .   8   .  8
        .   .   .  .
    """, "left"),
    "win": _example("""
        1024 1024 8  2
        64   16   4  .
        8    2    .  .
        .    .    .  .
    """, "left"),
    "lost": _example("""
        2  8   16  4
        4  32  64  2
        8  128 256 8
        2  16  4   2
    """),
    "full_not_lost": _example("""
        2  8   16  4
        4  32  64  2
        8  128 256 8
        2  16  4   4
    """, "right"),
}

STRATEGY = {
    "corner": _example("""
        512 128 32  8
        64  16  4   2
        8   2   .   .
        2   .   .   .
    """),
    "snake": _example("""
        1024 512 256 128
        8    16  32  64
        4    2   .   .
        .    .   .   2
    """),
    "collapse": _example("""
        512 256 128 64
        4   8   16  64
        2   .   .   .
        .   .   .   .
    """, "up"),
    "full_row": _example("""
        256 64  32  16
        4   8   2   .
        2   .   .   .
        .   .   .   .
    """, "right"),
    "two_directions": _example("""
        256 64  16  4
        32  8   2   .
        4   .   .   .
        .   4   .   2
    """, "up"),
    "skip_merge": _example("""
        256 64  16  .
        2   8   .   .
        .   8   .   2
        .   .   .   .
    """, "up"),
    "mistake_directions": _example("""
        256 32  8   .
        16  4   .   .
        2   .   .   .
        .   .   .   .
    """, "right"),
    "mistake_trapped": _example("""
        512 256 128 64
        32  2   64  16
        8   128 32  4
        2   4   8   2
    """),
    "mistake_hurry": _example("""
        1024 256 64  8
        128  32  16  4
        8    4   2   .
        2    8   .   4
    """, "down"),
}
