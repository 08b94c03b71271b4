"""The records table on both stores, each the real thing: an SQLite file, a redis-server."""

from __future__ import annotations

import pytest
import redis

from engine import Game
from tests.web_support import STORES, redis_of
from webapp.leaderboard.entry import Entry
from webapp.leaderboard.redis_table import (
    TAG, UNTAGGED, RedisLeaderboardTable, rename_untagged_keys,
)
from webapp.leaderboard.sqlite_table import SqliteLeaderboardTable
from webapp.store.game_record import GameRecord
from webapp.store.redis_writes import Writes
from webapp.store.sqlite_db import Database

DAY_ONE, DAY_TWO = "2026-12-01", "2026-12-02"


@pytest.fixture(params=STORES)
def table(request, tmp_path):
    if request.param == "sqlite":
        return SqliteLeaderboardTable(Database(tmp_path / "games.sqlite3", busy_timeout=2.0))
    return RedisLeaderboardTable(Writes(redis_of(request, request.param)))


def entered(table, number: int, score: int, day: str | None = None, name: str = "Ann"):
    """Enter a fresh game (seed `number`) with these values; its record."""
    record = GameRecord.start(Game.new(number))
    entry = Entry(record.id, name, score, 2048, 900, day, 1_700_000_000.0 + number)
    assert table.add(entry, record)
    return record


def test_a_game_is_entered_once(table):
    record = entered(table, 1, 5000)
    again = Entry(record.id, "Bob", 9000, 4096, 1, None, 1_800_000_000.0)
    assert not table.add(again, record)
    assert [(entry.name, entry.score) for entry in table.top()] == [("Ann", 5000)]


def test_the_table_is_by_score_then_the_earlier_entry(table):
    ids = [entered(table, number, score).id
           for number, score in ((1, 300), (2, 900), (3, 300), (4, 5000))]
    assert [entry.game_id for entry in table.top()] == [ids[3], ids[1], ids[0], ids[2]]
    assert [entry.game_id for entry in table.top(limit=2)] == [ids[3], ids[1]]


def test_ties_at_the_last_place_shown_keep_the_earlier_entry(table):
    ids = [entered(table, number, 100).id for number in (5, 3, 9, 1)]
    assert [entry.game_id for entry in table.top(limit=2)] == [ids[3], ids[1]]


def test_a_days_table_holds_that_days_games(table):
    first = entered(table, 1, 400, DAY_ONE)
    second = entered(table, 2, 800, DAY_TWO)
    ordinary = entered(table, 3, 1200)
    assert [entry.game_id for entry in table.top(DAY_ONE)] == [first.id]
    assert [entry.game_id for entry in table.top(DAY_TWO)] == [second.id]
    assert [entry.game_id for entry in table.top()] == [ordinary.id, second.id, first.id]
    assert table.top("2026-11-30") == []
    assert table.top(DAY_TWO)[0].day == DAY_TWO and table.top()[0].day is None


def test_a_hidden_entry_leaves_every_table_and_stays_listed_for_the_operator(table):
    kept, hidden = entered(table, 1, 400, DAY_ONE), entered(table, 2, 800, DAY_ONE)
    assert table.hide(hidden.id) and not table.hide("no-such-game-is-there-")
    assert [entry.game_id for entry in table.top()] == [kept.id]
    assert [entry.game_id for entry in table.top(DAY_ONE)] == [kept.id]
    newest = table.newest(10)
    assert [(entry.game_id, entry.hidden) for entry in newest] == [(hidden.id, True),
                                                                   (kept.id, False)]


def test_an_entry_keeps_its_game(table):
    record = entered(table, 7, 400)
    for direction in ("left", "up"):
        record.game.move(direction)  # changed after it was entered: the copy is not
    copy = table.game(record.id)
    assert copy.game.moves == 0 and copy.game.seed == 7 and copy.id == record.id
    assert table.game("no-such-game-is-there-") is None


def test_sqlite_reads_each_table_from_an_index_without_sorting(tmp_path):
    table = SqliteLeaderboardTable(Database(tmp_path / "games.sqlite3", busy_timeout=2.0))
    for number in range(30):
        entered(table, number, number * 10, DAY_ONE if number % 2 else None)
    connection = table.database.connection()
    for query, parameters in (
            ("WHERE hidden = 0 ORDER BY score DESC, entered, game_id LIMIT ?", (100,)),
            ("WHERE hidden = 0 AND day = ? ORDER BY score DESC, entered, game_id LIMIT ?",
             (DAY_ONE, 100)),
            ("ORDER BY entered DESC LIMIT ?", (10,))):
        plan = " ".join(row[3] for row in connection.execute(
            f"EXPLAIN QUERY PLAN SELECT name FROM record_table {query}", parameters))
        assert "USING INDEX record_table_by" in plan and "TEMP B-TREE" not in plan, plan


@pytest.mark.redis
def test_redis_keeps_the_table_without_expiry(redis_url):
    client = redis.Redis.from_url(redis_url)
    table = RedisLeaderboardTable(Writes(client))
    record = entered(table, 1, 400, DAY_ONE)
    keys = [key.decode() for key in client.keys("{records}:*")]
    assert sorted(keys) == sorted(["{records}:all", f"{{records}}:day:{DAY_ONE}",
                                   "{records}:entered", f"{{records}}:entry:{record.id}"])
    assert all(client.ttl(key) == -1 for key in keys)


@pytest.mark.redis
def test_a_table_kept_under_the_untagged_names_is_renamed_at_start_up(redis_url):
    """As the table was kept before its keys shared the {records} hash tag: every key renamed,
    nothing else touched, and a second start finds nothing to do."""
    client = redis.Redis.from_url(redis_url)
    table = RedisLeaderboardTable(Writes(client))
    daily, lasting = entered(table, 1, 400, DAY_ONE), entered(table, 2, 900)
    for key in client.keys("{records}:*"):
        client.rename(key, key.decode().replace(TAG, UNTAGGED))
    client.set("records-unrelated", "kept")
    rename_untagged_keys(client)
    assert [entry.game_id for entry in table.top()] == [lasting.id, daily.id]
    assert [entry.game_id for entry in table.top(DAY_ONE)] == [daily.id]
    assert [entry.game_id for entry in table.newest(10)] == [lasting.id, daily.id]
    assert table.game(daily.id).id == daily.id
    assert not client.keys(f"{UNTAGGED}*") and client.get("records-unrelated") == b"kept"
    rename_untagged_keys(client)
    assert len(client.keys("{records}:*")) == 5  # two entries, all, the day, entered
