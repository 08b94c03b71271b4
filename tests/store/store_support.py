"""Helpers for the store's tests: ways to age what a database holds, to see all of it, and to
write a record as stores kept it before a game was one text."""

from __future__ import annotations

import json

from webapp.store.records import ADDED_FIELDS, GameRecord
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


def legacy_fields(record: GameRecord) -> dict:
    """The record's fields as stores kept them before a game was one text: the position and
    the history side by side."""
    fields = {name: value for name, value in record.to_fields().items()
              if name != "game" and name not in ADDED_FIELDS}
    return {**fields, "position": json.dumps(record.game.to_dict()),
            "history": json.dumps(record.game.history.to_dict())}
