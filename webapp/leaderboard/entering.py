"""Entering a game in the records table: this browser's finished game, proved by its replay,
under a valid name, once; and where an entered game stands."""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, url_for
from werkzeug.exceptions import Conflict, HTTPException

from webapp import days
from webapp.i18n import translate as _
from webapp.leaderboard import leaderboard_table, verify
from webapp.leaderboard.entry import Entry
from webapp.leaderboard.names import clean_name
from webapp.store import games
from webapp.store.game_record import GameRecord, is_game_id
from webapp.store.sessions import owned


class AlreadyEntered(Conflict):
    """409: the game has its entry already; the description says where it stands."""


@dataclass(frozen=True)
class Placed:
    """A game's entry and where it stands in its table (`rank` None while it is hidden)."""

    entry: Entry
    rank: int | None

    @property
    def url(self) -> str:
        """The entry's row in its table (its day's, for a daily game)."""
        anchor = f"entry-{self.entry.game_id}"
        if self.entry.day:
            return url_for("records.daily", day=self.entry.day, _anchor=anchor)
        return url_for("records.all_time", _anchor=anchor)


def own_game(game_id: object) -> GameRecord:
    """The game a form names, if it is this browser's and still kept; the 404 page otherwise."""
    record = games().get(game_id) if is_game_id(game_id) and owned(game_id) else None
    if record is None:
        abort(404)
    return record


def placed(game_id: str) -> Placed | None:
    """The game's entry and rank, or None if it has not entered."""
    entry = leaderboard_table().entry(game_id)
    if entry is None:
        return None
    return Placed(entry, None if entry.hidden else leaderboard_table().rank(entry))


def refusal(record: GameRecord) -> HTTPException | None:
    """Why `record` cannot be entered now: it has entered already, or the table refuses it
    (`verify.refusal`); None when it may enter."""
    entered = placed(record.id)
    return already_entered(entered) if entered else verify.refusal(record)


def already_entered(entered: Placed) -> AlreadyEntered:
    """The refusal of a game that has its entry, saying under which name and at which rank."""
    if entered.rank is None:
        return AlreadyEntered(_("This game has been entered in the records already."))
    return AlreadyEntered(_("This game is in the records already, as “%(name)s”, at rank "
                            "%(rank)s.", name=entered.entry.name, rank=entered.rank))


def enter(record: GameRecord, raw_name: object) -> Placed:
    """Enter `record` under the name: AlreadyEntered when it has its entry, InvalidName for a
    name the table does not take, the game's refusal (an HTTP error) when it may not enter."""
    entered = placed(record.id)
    if entered is not None:
        raise already_entered(entered)
    name = clean_name(raw_name)
    refused = verify.refusal(record)
    if refused is not None:
        raise refused
    day = days.day_of(record)
    summary = record.summary()
    entry = Entry(record.id, name, summary.score, summary.best_tile, summary.moves,
                  day.isoformat() if day else None, days.now())
    if not leaderboard_table().add(entry, record):  # entered meanwhile, by another request
        raise already_entered(placed(record.id))
    return Placed(entry, leaderboard_table().rank(entry))
