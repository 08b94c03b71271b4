"""Helpers for the records table's tests: finishing a game through the routes, entering it
as the form does, and editing a stored game behind the app's back."""

import base64
import json

import pytest

from engine.history_codec import decode_checkpoints, encode_checkpoints

#: Runs a test once on each store.
BOTH_STORES = pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)], indirect=True)
#: The moves a finishing player tries, in this order.
PREFERENCE = ("down", "left", "right", "up")


def finish(player, store) -> None:
    """Play the player's game to its end: each move the first legal one of PREFERENCE."""
    while not (game := store.games.get(player.game).game).over:
        legal = game.legal_moves()
        assert player.move(next(d for d in PREFERENCE if d in legal)).status_code == 200


def enter(player, name: str = "Ann", game: str | None = None, lang: str = ""):
    """Send the records form, as the enter page does."""
    return player.client.post(f"{lang}/records", data={
        "game": game or player.game, "name": name, "csrf_token": player.token})


def edit_stored(app, game_id: str, change) -> None:
    """Rewrite a stored game's saved form (its ``game`` field) in the store itself, as a
    tampered database would hold it: change(saved) edits the parsed form in place."""
    games = app.extensions["games"]
    if hasattr(games, "database"):
        connection = games.database.connection()
        saved = json.loads(connection.execute("SELECT game FROM games WHERE id = ?",
                                              (game_id,)).fetchone()[0])
        change(saved)
        connection.execute("UPDATE games SET game = ? WHERE id = ?", (json.dumps(saved), game_id))
    else:
        saved = json.loads(games.client.hget(f"game:{game_id}", "game"))
        change(saved)
        games.client.hset(f"game:{game_id}", "game", json.dumps(saved))


def add_to_score(saved: dict, points: int) -> None:
    """Raise the score of a saved game's position (the end of its history) by `points`."""
    (end,) = decode_checkpoints(saved["end"]["tiles"], 1)
    saved["end"]["tiles"] = encode_checkpoints((end._replace(score=end.score + points),))


def change_one_move(saved: dict) -> None:
    """Turn the saved game's middle move into another direction (two bits of its moves)."""
    moves = bytearray(base64.b64decode(saved["moves"]))
    moves[len(moves) // 2] ^= 0b01
    saved["moves"] = base64.b64encode(bytes(moves)).decode()


def forget_game(app, game_id: str) -> None:
    """Take a game out of the game store, as its expiry or eviction would."""
    games = app.extensions["games"]
    if hasattr(games, "database"):
        games.database.connection().execute("DELETE FROM games WHERE id = ?", (game_id,))
    else:
        games.client.delete(f"game:{game_id}")
