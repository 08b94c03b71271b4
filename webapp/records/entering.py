"""Entering a game in the records table: this browser's finished game, proved by its replay,
under a valid name, once."""

from __future__ import annotations

from flask import abort

from webapp.daily import days
from webapp.game.current import owned
from webapp.store.record_entries import Entry
from webapp.records.names import clean_name
from webapp.records.verify import refusal
from webapp.store import games, record_table
from webapp.store.records import GameRecord, is_game_id


def own_game(game_id: object) -> GameRecord:
    """The game a form names, if it is this browser's and still kept; the 404 page otherwise."""
    record = games().get(game_id) if is_game_id(game_id) and owned(game_id) else None
    if record is None:
        abort(404)
    return record


def enter(record: GameRecord, raw_name: object) -> Entry:
    """Enter `record` under the name (InvalidName for a name the table does not take; the
    game's refusal, an HTTP error, when it may not enter). Entering a game again changes
    nothing: the answer is the entry it already has."""
    name = clean_name(raw_name)
    refused = refusal(record)
    if refused is not None:
        raise refused
    day = days.day_of(record)
    summary = record.summary()
    entry = Entry(record.id, name, summary.score, summary.best_tile, summary.moves,
                  day.isoformat() if day else None, days.now())
    record_table().add(entry, record)
    return entry
