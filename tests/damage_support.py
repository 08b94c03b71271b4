"""Games for the damage tests: played at random from a seed, and made a session's current game.
The damage itself is harness.damage's."""

from __future__ import annotations

import random

from engine import Game


def played(moves: int, seed: int) -> Game:
    """A seeded game of `moves` random legal moves (keeping playing after a win)."""
    game, generator = Game.new(seed=seed), random.Random(seed)
    while game.moves < moves:
        game.keep_playing()
        assert game.move(generator.choice(game.legal_moves()))
    return game


def keep_as_current(store, sid: str, game: Game) -> None:
    """Make `game` (with its history) the session's current game, as if played through the
    page: its move count is the game's."""
    record = store.record(sid)
    record.game, record.seq, record.played = game, game.moves, True
    assert store.games.replace(record)
