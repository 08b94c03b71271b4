"""What the history pages ask of both game stores: the listing fields of many games without their
positions; and a database from before reviews gets their column (the reviews' own store:
tests/review)."""

from __future__ import annotations

import sqlite3

import pytest

from engine import Game
from tests.store.store_support import DAY, OLD_GAMES, age, old_fields
from tests.web_support import STORES, redis_of
from webapp.review.sqlite_queue import SqliteReviewQueue
from webapp.store.game_record import GameRecord, new_game_id
from webapp.store.redis_games import KEY_PREFIX, RedisGames
from webapp.store.redis_writes import Writes
from webapp.store.retention import Retention
from webapp.store.sqlite_db import MIGRATIONS, Database
from webapp.store.sqlite_games import SqliteGames


@pytest.fixture(params=STORES)
def games(request, tmp_path):
    """The game store on each backend in turn (Redis: a real server, a real cluster)."""
    retention = Retention(30 * DAY, 1000)
    if request.param != "sqlite":
        return RedisGames(Writes(redis_of(request, request.param)), retention)
    return SqliteGames(Database(tmp_path / "games.sqlite3", busy_timeout=2.0), retention)


def corrupt_game(games, game_id: str) -> None:
    """Make the stored game unreadable, leaving every other field as it was."""
    if isinstance(games, RedisGames):
        games.client.hset(KEY_PREFIX + game_id, "game", "{not json")
    else:
        with games.database.transaction() as connection:
            connection.execute("UPDATE games SET game = '{' WHERE id = ?", (game_id,))


def played(moves: int = 3, assisted: bool = False) -> GameRecord:
    game = Game.from_rows([[2, 0, 0, 2], [0] * 4, [0] * 4, [0, 4, 0, 0]], seed=5)
    for direction in ("left", "right", "up", "down")[:moves]:
        game.move(direction)
    return GameRecord(new_game_id(), game, seq=moves, assisted=assisted, played=True)


def test_summaries_carry_the_listing_fields_and_read_no_game(games):
    first, second = played(3), played(2, assisted=True)
    for record in (first, second):
        games.add(record)
    corrupt_game(games, second.id)
    assert games.get(second.id) is None  # a whole read needs the game...
    found = {summary.id: summary for summary in games.summaries([first.id, second.id])}
    summary = found[second.id]  # ...the listing does not read it
    fields = second.to_fields()
    assert (summary.score, summary.best_tile, summary.moves, summary.status) == (
        fields["score"], fields["best_tile"], 2, "playing")
    assert summary.assisted is True and summary.played is True
    assert (summary.created, summary.last_played) == (second.created, second.last_played)
    assert found[first.id].moves == 3 and found[first.id].assisted is False


def test_summaries_leave_out_unknown_and_expired_games(games):
    kept, expired = played(), played()
    for record in (kept, expired):
        games.add(record)
    if isinstance(games, RedisGames):
        games.client.delete(KEY_PREFIX + expired.id)  # what its TTL does
    else:
        age(games.database, "games", expired.id, 31 * DAY)
    assert [summary.id for summary in games.summaries([kept.id, new_game_id(), expired.id])] == [
        kept.id]
    assert games.summaries([]) == []


def test_a_version_1_file_gets_the_review_column_and_keeps_its_games(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    monkeypatch.setattr("webapp.store.sqlite_db.MIGRATIONS", {1: MIGRATIONS[1]})
    monkeypatch.setattr("webapp.store.sqlite_db.SCHEMA_VERSION", 1)
    connection = Database(path, busy_timeout=2.0).connection()
    game_id = "L" * 22
    fields = old_fields(game_id)  # the columns of that schema, as old code wrote them
    connection.execute(f"INSERT INTO games ({', '.join(fields)}) VALUES "
                       f"({', '.join('?' * len(fields))})", tuple(fields.values()))
    monkeypatch.undo()
    database, retention = Database(path, busy_timeout=2.0), Retention(30 * DAY, 1000)
    games, reviews = SqliteGames(database, retention), SqliteReviewQueue(database, retention)
    game = games.get(game_id).game
    assert game.moves == len(game.history) == OLD_GAMES[game_id] and game.score == fields["score"]
    assert reviews.review(game_id) is None and reviews.replace_review(game_id, None, "new")
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == max(MIGRATIONS)
