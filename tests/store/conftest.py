"""Fixtures for the store's own tests: a real SQLite file and the game store on it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.store.store_support import DAY
from webapp.store.retention import Retention
from webapp.store.sqlite_db import Database
from webapp.store.sqlite_games import SqliteGames


@pytest.fixture
def make_games(tmp_path: Path) -> Callable[..., SqliteGames]:
    """make_games(max_entries=..., lifetime_days=...): games on a fresh database file."""
    def make(max_entries: int = 1000, lifetime_days: float = 30) -> SqliteGames:
        database = Database(tmp_path / "games.sqlite3", busy_timeout=2.0)
        return SqliteGames(database, Retention(lifetime_days * DAY, max_entries))
    return make
