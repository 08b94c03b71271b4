"""Damage as failing storage does it: two bits of one stored move changed, so the move reads as
another direction (up and right, down and left trade places)."""

from __future__ import annotations

import base64
import json
import random

from engine import Game


def flip_move(history: dict, move: int) -> dict:
    """The saved history (`History.to_dict()`, or a whole game's `Game.to_saved()`) with both
    bits of move number `move` (from 1) flipped."""
    packed = bytearray(base64.b64decode(history["moves"]))
    index = move - 1
    packed[index // 4] ^= 0b11 << (2 * (index % 4))
    return {**history, "moves": base64.b64encode(bytes(packed)).decode("ascii")}


def damage_stored_move(app, game_id: str, move: int) -> None:
    """Flip move number `move` in the game the app's SQLite database keeps."""
    database = app.extensions["games"].database
    with database.transaction() as connection:
        (text,) = connection.execute("SELECT game FROM games WHERE id = ?", (game_id,)).fetchone()
        damaged = json.dumps(flip_move(json.loads(text), move), separators=(",", ":"))
        connection.execute("UPDATE games SET game = ? WHERE id = ?", (damaged, game_id))


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
