"""This browser's game of the day: a second game the session points at (``daily``), beside
its ordinary one (``game``), which the daily game never replaces. A daily game of an earlier
day joins the session's earlier games when the next day's starts."""

from __future__ import annotations

from datetime import date

from flask import session

from webapp import days
from webapp.game.current import keep_alive
from webapp.store import games
from webapp.store.game_record import GameRecord
from webapp.store.sessions import MAX_EARLIER_GAMES, renew_id


def daily_game() -> tuple[GameRecord, bool]:
    """Today's game of this browser, started (and stored) on its first visit of the day:
    (record, whether the session's daily game of today was no longer found)."""
    today = days.today()
    game_id = session.get("daily")
    record = games().get(game_id) if game_id else None
    if record is not None and days.day_of(record) == today:
        keep_alive()
        return record, False
    lost = record is None and game_id is not None
    if game_id and not lost:
        session["games"] = [*session.get("games", []), game_id][-MAX_EARLIER_GAMES:]
    return _start(today), lost


def _start(today: date) -> GameRecord:
    """A new game of the day: the day's opening, then tiles of its own; the session takes a
    fresh id (`renew_id`)."""
    record = GameRecord.start(opening=days.opening_seed(today))
    record.day = today
    record.created = record.last_played = days.now()
    games().add(record)
    renew_id()
    session["daily"] = record.id
    return record
