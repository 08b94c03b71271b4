"""Days, their openings and the games that belong to them.

Every daily game of a day starts from the same two tiles, the day's opening, dealt from a seed
that is an HMAC-SHA256 of the date with the app's secret key: nobody without the key can work
out a day's start ahead. Every tile after those two comes from the game's own secret seed, as
in an ordinary game, so no other game, browser or replay shows a player a tile that is coming
in theirs. A daily game's record names its day (`GameRecord.day`); the table proves the game
started from that day's opening (`webapp.leaderboard.verify`). The clock is the app's ``CLOCK``
setting (Unix seconds; tests give a fake one), ``time.time`` by default.

The daily game's wing (`webapp.daily`) starts its games here; the game's view, the leaderboard
and a game's link (`webapp.links`) ask which day a game is, so this module belongs to none of
them.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache

from flask import current_app

from webapp.store.game_record import GameRecord


def now() -> float:
    """The app's time, Unix seconds."""
    return current_app.config.get("CLOCK", time.time)()


def day_at(timestamp: float) -> date:
    """The UTC day of a Unix time."""
    return datetime.fromtimestamp(timestamp, timezone.utc).date()


def today() -> date:
    """The UTC day now."""
    return day_at(now())


def day_end(day: date) -> float:
    """The Unix time `day` ends (the next day's midnight, UTC)."""
    return datetime.combine(day + timedelta(days=1), datetime.min.time(), timezone.utc).timestamp()


def opening_seed(day: date) -> int:
    """The seed the first two tiles of every game of `day` come from (a 64-bit number)."""
    key = current_app.config["SECRET_KEY"]
    return _keyed_seed(key.encode() if isinstance(key, str) else key, day)


@lru_cache(maxsize=64)
def _keyed_seed(key: bytes, day: date) -> int:
    """`opening_seed`, remembered: an older record's day is read from its seed (`day_of`)."""
    digest = hmac.new(key, f"2048 daily {day.isoformat()}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def day_of(record: GameRecord) -> date | None:
    """The day whose game `record` is, or None for an ordinary game.

    Records written before daily games named their day dealt every tile from the day's seed:
    such a record is its creation day's game when its seed is that day's."""
    if record.day is not None:
        return record.day
    day = day_at(record.created)
    return day if record.game.seed == opening_seed(day) else None


def secret(record: GameRecord) -> bool:
    """Whether the record is a game of a day that is not over yet (its replay is its player's)."""
    day = day_of(record)
    return day is not None and now() < day_end(day)
