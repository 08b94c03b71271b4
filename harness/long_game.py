"""The stored long game: a seeded game of 20,000 legal moves (tests/data/long_game.json, made by
tools/long_game.py), which the history's tests and benchmarks play back.

It is stored as the seed and a letter per move, so it does not depend on the history's saved
form.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine import DIRECTIONS, Game
from harness import ROOT

STORED = ROOT / "tests" / "data" / "long_game.json"
LETTERS = {direction: direction[0] for direction in DIRECTIONS}


def play(seed: int, letters: str) -> Game:
    """The game `Game.new(seed)` after the moves spelled by `letters` (u, d, l, r)."""
    by_letter = {letter: direction for direction, letter in LETTERS.items()}
    game = Game.new(seed=seed)
    for number, letter in enumerate(letters, 1):
        game.keep_playing()
        if not game.move(by_letter[letter]):
            raise ValueError(f"move {number} of the stored long game is not legal")
    return game


def load(path: Path = STORED) -> Game:
    """The stored long game, played."""
    stored = json.loads(path.read_text())
    return play(stored["seed"], stored["directions"])
