"""What the embedded store keeps: sliding expiry, and which games go when it is full."""

from __future__ import annotations

import time

from engine import Game
from tests.store.store_support import DAY, age, ids
from webapp.store.game_record import GameRecord
from webapp.store.retention import BATCH, FAIR_CHANCE, UNPLAYED_LIFETIME
from webapp.store.sqlite_db import TABLES, delete_front_sql


def played(games, moves: int = 1) -> GameRecord:
    """A new game, stored, with `moves` moves made (a played game)."""
    record = GameRecord.start(Game.new(seed=len(ids(games.database))))
    games.add(record)
    for _ in range(moves):
        record.game.move(record.game.legal_moves()[0])
        record.seq += 1
        record.played, record.last_played = True, time.time()
        assert games.replace(record)
    return record


def unplayed(games) -> GameRecord:
    record = GameRecord.start()
    games.add(record)
    return record


def test_a_played_game_expires_its_lifetime_after_its_last_move_and_each_move_pushes_it(
        make_games):
    games = make_games(lifetime_days=30)
    record = played(games)
    age(games.database, "games", record.id, 30 * DAY - 60)
    assert games.get(record.id) is not None  # a minute left
    record = games.get(record.id)
    record.game.move(record.game.legal_moves()[0])
    record.last_played = time.time()
    assert games.replace(record)
    age(games.database, "games", record.id, 120)
    assert games.get(record.id) is not None  # the move gave it 30 days again
    age(games.database, "games", record.id, 30 * DAY)
    assert games.get(record.id) is None  # expired: never read back
    assert record.id in ids(games.database)  # though still on disk until swept


def test_an_unplayed_game_lives_an_hour(make_games):
    games = make_games()
    record = unplayed(games)
    age(games.database, "games", record.id, UNPLAYED_LIFETIME - 60)
    assert games.get(record.id) is not None
    age(games.database, "games", record.id, 120)
    assert games.get(record.id) is None


def test_expired_games_are_swept_by_later_writes_a_batch_at_a_time(make_games):
    games = make_games(lifetime_days=1)
    old = [played(games) for _ in range(BATCH + 4)]
    for record in old:
        age(games.database, "games", record.id, 2 * DAY)
    unplayed(games)
    left = ids(games.database) & {record.id for record in old}
    assert len(left) == 4  # one write removed one batch
    unplayed(games)
    assert not ids(games.database) & {record.id for record in old}


def test_past_the_cap_the_least_recently_played_game_goes_first(make_games):
    games = make_games(max_entries=10)
    players = [played(games) for _ in range(10)]
    for rank, record in enumerate(players):  # players[0] played longest ago
        age(games.database, "games", record.id, 1000 - rank)
    newcomer = played(games)
    kept = ids(games.database)
    assert players[0].id not in kept
    assert {record.id for record in players[1:]} | {newcomer.id} == kept


def test_a_crowd_that_never_moves_never_pushes_out_a_player(make_games):
    games = make_games(max_entries=20)
    players = {played(games).id for _ in range(20)}
    crowd = []
    for _ in range(100):
        crowd.append(unplayed(games))
        age(games.database, "games", crowd[-1].id, FAIR_CHANCE + 1)  # its ten minutes are over
    kept = ids(games.database)
    assert players <= kept  # every player's game is still there
    assert len(kept - players) == games.retention.unplayed_quota  # on top of the cap
    assert {record.id for record in crowd[-games.retention.unplayed_quota:]} <= kept
    assert all(games.get(player) is not None for player in players)


def test_newcomers_keep_their_first_ten_minutes_past_the_unplayed_quota(make_games):
    games = make_games(max_entries=20)
    quota = games.retention.unplayed_quota
    waiting = [unplayed(games) for _ in range(3 * quota)]
    assert {record.id for record in waiting} <= ids(games.database)  # all of them, for now
    for record in waiting:
        age(games.database, "games", record.id, FAIR_CHANCE + 1)
    newcomer = unplayed(games)
    assert ids(games.database) == {record.id for record in waiting[-quota + 1:]} | {newcomer.id}


def test_an_unplayed_game_is_spared_for_exactly_its_first_ten_minutes(make_games):
    games = make_games(max_entries=20)
    waiting = [unplayed(games) for _ in range(games.retention.unplayed_quota)]  # a full pool
    for record in waiting:
        age(games.database, "games", record.id, 599)
    spared = unplayed(games)  # none is ten minutes old: nothing goes
    assert ids(games.database) == {record.id for record in waiting} | {spared.id}
    for record in waiting:
        age(games.database, "games", record.id, 2)  # 601 seconds old now
    newcomer = unplayed(games)
    assert ids(games.database) == {spared.id, newcomer.id}


def test_a_first_move_in_a_full_store_pushes_out_the_least_recently_played_not_a_newcomer(
        make_games):
    games = make_games(max_entries=20)
    players = [played(games) for _ in range(20)]
    for rank, record in enumerate(players):  # players[0] played longest ago
        age(games.database, "games", record.id, 1000 - rank)
    waiting = [unplayed(games) for _ in range(3)]
    record = games.get(waiting[0].id)
    record.game.move(record.game.legal_moves()[0])
    record.played, record.last_played = True, time.time()
    assert games.replace(record)  # its own first move never evicts it
    kept = ids(games.database)
    assert kept == {player.id for player in players[1:]} | {entry.id for entry in waiting}


def test_eviction_is_bounded_per_write_even_far_past_the_cap(make_games, tmp_path):
    games = make_games(max_entries=1000)
    for _ in range(60):
        played(games, moves=1)
    shrunk = make_games(max_entries=10)  # the operator lowered the cap
    played(shrunk)
    assert len(ids(shrunk.database)) == 61 - BATCH


def test_the_trigger_kept_counts_match_the_tables(make_games):
    games = make_games(max_entries=15)
    for step in range(40):
        played(games) if step % 3 else unplayed(games)
    connection = games.database.connection()
    unplayed_count, played_count = games.database.entries(connection, "games")
    actual = dict(connection.execute(
        "SELECT played, count(*) FROM games GROUP BY played").fetchall())
    assert (unplayed_count, played_count) == (actual.get(0, 0), actual.get(1, 0))


def test_making_room_reads_each_pool_from_its_index_never_scanning_the_table(make_games):
    games = make_games(max_entries=15)
    for step in range(40):
        played(games) if step % 3 else unplayed(games)
    connection = games.database.connection()
    for table in TABLES:
        plan = [row[3] for row in connection.execute(
            f"EXPLAIN QUERY PLAN {delete_front_sql(table)}", (1, time.time(), "", BATCH))]
        assert f"SEARCH {table} USING INDEX {table}_by_age (played=? AND last_played<?)" in plan
        assert not any(step.startswith("SCAN") or "TEMP B-TREE" in step for step in plan)
