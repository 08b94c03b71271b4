"""Days, their seeds and the games that belong to them.

The day's seed is an HMAC-SHA256 of the date with the app's secret key: the same for every
player, and nobody without the key can work out the day's spawns ahead. A game belongs to a day
when it was created on that day (UTC) and its seed is that day's, so no extra field marks it and
the stored record cannot claim a day it was not dealt. The clock is the app's ``CLOCK`` setting
(Unix seconds; tests give a fake one), ``time.time`` by default.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache

from flask import current_app

from webapp.store.records import GameRecord


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


def seed(day: date) -> int:
    """The seed every player's game of `day` starts from (a 64-bit number)."""
    key = current_app.config["SECRET_KEY"]
    return _keyed_seed(key.encode() if isinstance(key, str) else key, day)


@lru_cache(maxsize=64)
def _keyed_seed(key: bytes, day: date) -> int:
    """`seed`, remembered: every answer about a game asks whether it is a daily one."""
    digest = hmac.new(key, f"2048 daily {day.isoformat()}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def day_of(record: GameRecord) -> date | None:
    """The day whose game `record` is, or None for an ordinary game."""
    day = day_at(record.created)
    return day if record.game.seed == seed(day) else None


def secret(record: GameRecord) -> bool:
    """Whether the record is a game of a day that is not over yet (its spawns are secret)."""
    day = day_of(record)
    return day is not None and now() < day_end(day)
