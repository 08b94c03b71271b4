"""The browser's current game: which record it is, starting one, and changing it safely.

The session names the current game; the game itself is a record in the store. A change is
applied to a fresh read and written with a compare-and-set: when another request (another tab,
a retry) wrote in between, it is applied again to what that one left, so nothing is lost or
applied twice, and nothing is ever locked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import current_app, session

from webapp.errors import GameGone
from webapp.store import games
from webapp.store.errors import WriteConflict
from webapp.store.game_record import GameRecord
from webapp.store.sessions import MAX_EARLIER_GAMES, renew_id, today

T = TypeVar("T")

#: Compare-and-set attempts before the request gives up with a 503 (the page then retries).
WRITE_ATTEMPTS = 8


def current() -> tuple[GameRecord, bool]:
    """The session's game, or a new one (stored) when there is none: (record, whether an earlier
    game named by the session was no longer found). A player's visit keeps the session alive."""
    game_id = session.get("game")
    record = games().get(game_id) if game_id else None
    if record is None:
        return start(), game_id is not None
    keep_alive()
    return record, False


def for_page(game_id: str) -> GameRecord:
    """The game a page's request is about; GameGone unless it is the session's current one (or
    its game of the day)."""
    pages = (session.get("game"), session.get("daily"))
    if game_id not in pages or (record := games().get(game_id)) is None:
        raise GameGone()
    return record


def start() -> GameRecord:
    """A new game, stored and made the session's current one (the previous one is remembered
    among its earlier games), under a fresh session id (`renew_id`)."""
    record = GameRecord.start()
    games().add(record)
    renew_id()
    earlier = session.get("games", [])
    if session.get("game"):
        earlier = [*earlier, session["game"]][-MAX_EARLIER_GAMES:]
    session["games"], session["game"] = earlier, record.id
    return record


def change(
    record: GameRecord, apply: Callable[[GameRecord], tuple[T, bool]]
) -> tuple[GameRecord, T]:
    """Apply `apply` (which answers what happened and whether it changed the record) and store
    the result; on a conflict, re-read and apply again. GameGone if the game vanished; a
    WriteConflict (503) if it kept changing under every attempt. An answer that changes nothing
    (a retry whose move is stored already) still waits until the game is as safe as a write
    would be (`GameStore.settle`)."""
    for _attempt in range(WRITE_ATTEMPTS):
        result, changed = apply(record)
        if not changed:
            games().settle(record)
            return record, result
        if games().replace(record, current_app.session_interface.stored_id(session)):
            if record.played and session.get("played") is not True:
                session["played"] = True
            keep_alive()
            return record, result
        record = games().get(record.id)
        if record is None:
            raise GameGone()
    raise WriteConflict(f"game {record.id} kept changing under {WRITE_ATTEMPTS} writes")


def keep_alive() -> None:
    """Send a player's session cookie again, at most once a day (marking the session changed
    saves it, which sends the cookie). The stored session is renewed by each move anyway."""
    if session.get("played") is True and session.get("touched") != today():
        session["touched"] = today()
