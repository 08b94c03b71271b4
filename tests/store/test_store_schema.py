"""The embedded database's file: its schema version, its journal, its upgrades."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from webapp import create_app
from webapp.config import ConfigError
from webapp.store.sqlite_db import MIGRATIONS, SCHEMA_VERSION, Database


def test_a_new_file_gets_the_current_schema_in_wal_mode(tmp_path):
    Database(tmp_path / "games.sqlite3", busy_timeout=2.0)
    connection = sqlite3.connect(tmp_path / "games.sqlite3")
    assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert {"games", "sessions", "entry_counts", "games_by_age", "sessions_by_age"} <= tables


def test_an_older_file_is_upgraded_and_keeps_its_rows(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    newer = {**MIGRATIONS, SCHEMA_VERSION + 1: ["ALTER TABLE games ADD COLUMN later TEXT"]}
    database = Database(path, busy_timeout=2.0)
    with database.transaction() as connection:
        connection.execute("INSERT INTO sessions VALUES ('kept', x'80', 0, 0)")
    monkeypatch.setattr("webapp.store.sqlite_db.MIGRATIONS", newer)
    monkeypatch.setattr("webapp.store.sqlite_db.SCHEMA_VERSION", SCHEMA_VERSION + 1)
    upgraded = Database(path, busy_timeout=2.0)
    connection = upgraded.connection()
    assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    assert "later" in {row[1] for row in connection.execute("PRAGMA table_info(games)")}
    assert [row["id"] for row in connection.execute("SELECT id FROM sessions")] == ["kept"]


def test_a_file_from_a_newer_release_is_refused_at_start_up(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    connection = sqlite3.connect(instance / "games.sqlite3")
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(ConfigError, match="newer than this release"):
        create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "x", "SOLVER_WARM_UP": False})


def test_each_thread_and_each_process_gets_its_own_connection(tmp_path):
    database = Database(tmp_path / "games.sqlite3", busy_timeout=2.0)
    here = database.connection()
    assert database.connection() is here
    other = []
    thread = threading.Thread(target=lambda: other.append(database.connection()))
    thread.start()
    thread.join()
    assert other[0] is not here
