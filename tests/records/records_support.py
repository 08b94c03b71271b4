"""Helpers for the records table's tests: finishing a game through the routes, entering it
as the form does, and editing a stored game behind the app's back."""

import json

import pytest

#: Runs a test once on each store.
BOTH_STORES = pytest.mark.parametrize("backend", ["sqlite", "redis"], indirect=True)
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
    """Rewrite a stored game's saved form (`Game.to_saved()`, the ``game`` field) in the store
    itself, as a tampered database would hold it: change(value) edits the parsed value."""
    games = app.extensions["games"]
    if hasattr(games, "database"):
        connection = games.database.connection()
        text = connection.execute("SELECT game FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        value = json.loads(text)
        change(value)
        connection.execute("UPDATE games SET game = ? WHERE id = ?", (json.dumps(value), game_id))
    else:
        value = json.loads(games.client.hget(f"game:{game_id}", "game"))
        change(value)
        games.client.hset(f"game:{game_id}", "game", json.dumps(value))


def forget_game(app, game_id: str) -> None:
    """Take a game out of the game store, as its expiry or eviction would."""
    games = app.extensions["games"]
    if hasattr(games, "database"):
        games.database.connection().execute("DELETE FROM games WHERE id = ?", (game_id,))
    else:
        games.client.delete(f"game:{game_id}")
