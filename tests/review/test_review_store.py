"""Where a review is kept, on both stores: beside its game (the same SQLite row or Redis hash),
written by compare-and-set, living and going with the game, and leaving the game's own writes
alone."""

from __future__ import annotations

import pytest

from engine import Game
from tests.web_support import STORES, redis_of
from webapp.review.redis_queue import RedisReviewQueue
from webapp.review.sqlite_queue import SqliteReviewQueue
from webapp.store.game_record import GameRecord, new_game_id
from webapp.store.redis_games import KEY_PREFIX, RedisGames
from webapp.store.redis_writes import Writes
from webapp.store.retention import Retention
from webapp.store.sqlite_db import Database
from webapp.store.sqlite_games import SqliteGames

DAY = 86400.0


@pytest.fixture(params=STORES)
def stores(request, tmp_path):
    """The game store and the reviews' on each backend in turn (Redis: a real server)."""
    retention = Retention(30 * DAY, 1000)
    if request.param != "sqlite":
        client = redis_of(request, request.param)
        return RedisGames(Writes(client), retention), RedisReviewQueue(client)
    database = Database(tmp_path / "games.sqlite3", busy_timeout=2.0)
    return SqliteGames(database, retention), SqliteReviewQueue(database, retention)


def played() -> GameRecord:
    game = Game.from_rows([[2, 0, 0, 2], [0] * 4, [0] * 4, [0, 4, 0, 0]], seed=5)
    for direction in ("left", "right", "up"):
        game.move(direction)
    return GameRecord(new_game_id(), game, seq=3, played=True)


def test_a_review_is_written_by_compare_and_set(stores):
    games, reviews = stores
    record = played()
    games.add(record)
    assert reviews.review(record.id) is None
    assert reviews.replace_review(record.id, None, "first") is True
    assert reviews.replace_review(record.id, None, "lost race") is False
    assert reviews.replace_review(record.id, "stale", "lost race") is False
    assert reviews.review(record.id) == "first"
    assert reviews.replace_review(record.id, "first", "second") is True
    assert reviews.review(record.id) == "second"


def test_a_review_needs_its_game_and_goes_with_it(stores):
    games, reviews = stores
    unknown = new_game_id()
    assert reviews.replace_review(unknown, None, "orphan") is False
    assert reviews.review(unknown) is None
    if isinstance(games, RedisGames):
        assert not games.client.exists(KEY_PREFIX + unknown)  # no hash without a TTL appears
    record = played()
    games.add(record)
    assert reviews.replace_review(record.id, None, "kept")
    if isinstance(games, RedisGames):
        assert games.client.ttl(KEY_PREFIX + record.id) > 29 * DAY  # the game's own lifetime
        games.client.delete(KEY_PREFIX + record.id)
    else:
        with games.database.transaction() as connection:  # last played 31 days ago
            connection.execute("UPDATE games SET last_played = last_played - ? WHERE id = ?",
                               (31 * DAY, record.id))
    assert reviews.review(record.id) is None


def test_writing_a_review_and_playing_on_leave_each_other_alone(stores):
    games, reviews = stores
    record = played()
    games.add(record)
    assert reviews.replace_review(record.id, None, "of 3 moves")
    reread = games.get(record.id)
    assert reread.version == record.version  # the review did not count as a write of the game
    reread.game.move("left")
    reread.seq += 1
    assert games.replace(reread)
    assert reviews.review(record.id) == "of 3 moves"
    assert games.get(record.id).game.moves == 4
