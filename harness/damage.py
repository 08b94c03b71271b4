"""Damage as failing storage does it: two bits of one stored move changed, so the move reads as
another direction (up and right, down and left trade places)."""

from __future__ import annotations

import base64
import json

from flask import Flask


def flip_move(saved: dict, move: int) -> dict:
    """The saved game `saved` (`Game.to_saved()`) with both bits of move number `move` (from 1)
    flipped."""
    packed = bytearray(base64.b64decode(saved["moves"]))
    index = move - 1
    packed[index // 4] ^= 0b11 << (2 * (index % 4))
    return {**saved, "moves": base64.b64encode(bytes(packed)).decode("ascii")}


def damage_stored_move(app: Flask, game_id: str, move: int) -> None:
    """Flip move number `move` in the game the app's SQLite database keeps."""
    database = app.extensions["games"].database
    with database.transaction() as connection:
        (text,) = connection.execute("SELECT game FROM games WHERE id = ?", (game_id,)).fetchone()
        damaged = json.dumps(flip_move(json.loads(text), move), separators=(",", ":"))
        connection.execute("UPDATE games SET game = ? WHERE id = ?", (damaged, game_id))
