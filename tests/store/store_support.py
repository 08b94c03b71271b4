"""Helpers for the store's tests: ways to age what a database holds, to see all of it, and
records as stores kept them before a game was one text."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from webapp.store.sqlite_db import Database

DAY = 86400.0
#: Records written by the code at 7a5daa9 through its own stores (see test_store_old_records):
#: games of the seeded long game after 7, 1475 and 2345 moves.
OLD_DATA = Path(__file__).parent / "data"
OLD_GAMES = {"S" * 22: 7, "W" * 22: 1475, "L" * 22: 2345}


def age(database: Database, table: str, entry_id: str, seconds: float) -> None:
    """Move an entry's last activity `seconds` into the past."""
    with database.transaction() as connection:
        connection.execute(f"UPDATE {table} SET last_played = last_played - ? WHERE id = ?",
                           (seconds, entry_id))


def ids(database: Database, table: str = "games") -> set[str]:
    """Every id the table holds, expired or not."""
    return {row[0] for row in database.connection().execute(f"SELECT id FROM {table}")}


def old_fields(game_id: str) -> dict:
    """A record of OLD_GAMES as 7a5daa9's SQLite store kept it, before a game was one text: the
    position and the history side by side (the review column left out)."""
    uri = f"{(OLD_DATA / 'old_records.sqlite3').as_uri()}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as connection:
        connection.row_factory = sqlite3.Row
        row = connection.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    return {name: row[name] for name in row.keys() if name != "review"}
