"""Games stored before a game was one text still load and play on, on both stores.

The files in data/ were written by the code at 7a5daa9 through its own stores (`SqliteGames.add`
into a new database file; `RedisGames.add`, then HGETALL of each hash): three games of the
seeded long game in tests/data/long_game.json, after 7 moves, after 1475 (a win awaiting the choice)
and after 2345 (two checkpoints).
"""

from __future__ import annotations

import json
import shutil

import pytest
import redis

from engine import Game
from tests.store.store_support import DAY, OLD_DATA, OLD_GAMES
from webapp.store.game_record import LEGACY_FIELDS
from webapp.store.redis_games import KEY_PREFIX, RedisGames
from webapp.store.redis_writes import Writes
from webapp.store.retention import Retention
from webapp.store.sqlite_db import Database
from webapp.store.sqlite_games import SqliteGames



@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def games(request, tmp_path):
    """A store holding the games as the old code wrote them."""
    retention = Retention(30 * DAY, 1000)
    if request.param == "redis":
        client = redis.Redis.from_url(request.getfixturevalue("redis_url"))
        for game_id, fields in json.loads((OLD_DATA / "old_records_redis.json").read_text()).items():
            client.hset(KEY_PREFIX + game_id, mapping=fields)
        return RedisGames(Writes(client), retention)
    shutil.copy(OLD_DATA / "old_records.sqlite3", tmp_path / "games.sqlite3")
    return SqliteGames(Database(tmp_path / "games.sqlite3", busy_timeout=2.0), retention)


def stored_form(games, game_id: str) -> dict:
    """The fields the store now keeps for the game, as text."""
    if isinstance(games, RedisGames):
        return {name.decode(): value.decode()
                for name, value in games.client.hgetall(KEY_PREFIX + game_id).items()}
    return dict(games.database.read("SELECT * FROM games WHERE id = ?", (game_id,)))


@pytest.mark.parametrize("game_id", OLD_GAMES)
def test_an_old_record_loads_and_plays_on_in_the_one_saved_form(games, game_id):
    record = games.get(game_id)
    game = record.game
    assert game.moves == len(game.history) == record.seq == OLD_GAMES[game_id]
    assert game.replayed(game.moves).position == game.position
    assert game.sound_part().position == game.position
    if game.awaiting_choice:
        game.keep_playing()
    direction = game.legal_moves()[0]
    assert game.move(direction)
    record.seq += 1
    assert games.replace(record)
    stored = stored_form(games, game_id)
    assert json.loads(stored["game"])["version"] == 3
    assert not set(LEGACY_FIELDS) & set(stored)
    again = games.get(game_id)
    assert again.game.position == game.position and again.game.history == game.history
    assert again.game.history.directions()[-1] == direction
    assert again.game.undo() and again.game.moves == OLD_GAMES[game_id]
    assert Game.replay(again.game.history, 1).moves == 1
