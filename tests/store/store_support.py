"""Helpers for the store's tests: ways to age what a database holds and to see all of it."""

from __future__ import annotations

from webapp.store.sqlite_db import Database

DAY = 86400.0


def age(database: Database, table: str, entry_id: str, seconds: float) -> None:
    """Move an entry's last activity `seconds` into the past."""
    with database.transaction() as connection:
        connection.execute(f"UPDATE {table} SET last_played = last_played - ? WHERE id = ?",
                           (seconds, entry_id))


def ids(database: Database, table: str = "games") -> set[str]:
    """Every id the table holds, expired or not."""
    return {row[0] for row in database.connection().execute(f"SELECT id FROM {table}")}
