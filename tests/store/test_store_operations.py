"""The operator's commands: a backup of the live database made while a player's write is under
way, checked; an integrity check that finds a broken page; and a warning at start-up when
Redis keeps nothing on disk."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import closing

import pytest
import redis


def run(app, *args: str):
    return app.test_cli_runner().invoke(args=list(args))


def stored_row(path, game_id: str) -> dict:
    """The game's row as the database file at `path` keeps it."""
    with closing(sqlite3.connect(path)) as connection:
        connection.row_factory = sqlite3.Row
        return dict(connection.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone())


def break_a_page(path, index: str = "games_by_age") -> None:
    """Overwrite the first page of `index` in the file at `path` with garbage, as a failing disk
    would (the write-ahead log is emptied into the file first)."""
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        (root,) = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (index,)).fetchone()
    with open(path, "r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(b"\xa5" * page_size)


def test_a_backup_is_made_while_a_write_is_under_way_and_holds_the_games(
        app, player, tmp_path):
    for direction in ("left", "up", "right", "down"):
        player.move(direction)
    database = app.extensions["games"].database
    before = stored_row(database.path, player.game)
    target = tmp_path / "backups" / "games.sqlite3"
    with closing(sqlite3.connect(database.path, isolation_level=None)) as writer:
        writer.execute("BEGIN IMMEDIATE")  # a player's write, not yet committed
        writer.execute("UPDATE games SET score = score + 2 WHERE id = ?", (player.game,))
        result = run(app, "backup-database", str(target))
        writer.execute("COMMIT")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"backed up {database.path} to {target} (")
    assert result.output.rstrip().endswith("integrity check ok")
    assert sorted(path.name for path in target.parent.iterdir()) == ["games.sqlite3"]
    assert stored_row(target, player.game) == before  # the snapshot from before that write
    assert stored_row(database.path, player.game)["score"] == before["score"] + 2
    assert player.move("left").status_code == 200  # the game went on


def test_a_backup_does_not_overwrite_a_file(app, tmp_path):
    target = tmp_path / "games.sqlite3"
    target.write_bytes(b"an earlier backup")
    result = run(app, "backup-database", str(target))
    assert result.exit_code == 1 and "already exists" in result.output
    assert target.read_bytes() == b"an earlier backup"


def test_the_integrity_check_passes_a_sound_database_and_finds_a_broken_page(app, player):
    player.move("left")
    database = app.extensions["games"].database
    sound = run(app, "check-database")
    assert sound.exit_code == 0 and sound.output == f"{database.path}: integrity check ok\n"
    database.forget_connection()
    break_a_page(database.path)
    broken = run(app, "check-database", str(database.path))
    assert broken.exit_code == 1
    assert broken.output.startswith(f"{database.path}: ")
    assert "ok" not in broken.output.splitlines()


def test_a_backup_of_a_damaged_database_says_so(app, player, tmp_path):
    player.move("left")
    app.extensions["games"].database.forget_connection()
    break_a_page(app.extensions["games"].database.path)
    result = run(app, "backup-database", str(tmp_path / "copy.sqlite3"))
    assert result.exit_code == 1 and "is damaged" in result.output


def test_checking_a_file_that_is_not_a_database(app, tmp_path):
    text = tmp_path / "notes.sqlite3"
    text.write_text("not a database, " * 100)
    result = run(app, "check-database", str(text))
    assert result.exit_code == 1 and "file is not a database" in result.output


@pytest.mark.redis
def test_redis_without_persistence_is_warned_about_at_start_up(
        make_web_app, redis_url, tmp_path, caplog):
    """The tests' redis-server runs with appendonly no and save "" (harness/redis_server.py)."""
    with caplog.at_level(logging.WARNING, logger="webapp.store.redis_startup"):
        make_web_app(tmp_path / "a", SESSION_BACKEND="redis", REDIS_URL=redis_url)
    assert "Redis keeps the games in memory only" in caplog.text
    caplog.clear()
    client = redis.Redis.from_url(redis_url)
    client.config_set("save", "3600 1")
    try:
        with caplog.at_level(logging.WARNING, logger="webapp.store.redis_startup"):
            app = make_web_app(tmp_path / "b", SESSION_BACKEND="redis", REDIS_URL=redis_url)
    finally:
        client.config_set("save", "")
    assert "Redis" not in caplog.text
    assert "kept in Redis" in run(app, "backup-database", str(tmp_path / "copy")).output
