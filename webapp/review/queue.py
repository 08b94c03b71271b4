"""Where reviews are kept: each game's review text beside the game, and the queue of the reviews
waiting or running, in the store beside the games, so that every worker process shares one queue
and none of it lives only in a process that may die.

The review text (`webapp.review.model`) lives and goes with its game, written by compare-and-set
on the text itself, and writing it leaves the game's version alone.

Each queue entry is a game to review and the client that asked (its address and its session,
each allowed one entry at a time). A worker takes the oldest entry that nobody holds, for a lease
of a few seconds that it renews with every progress write; an entry whose lease ran out (its
worker was killed, redeployed or recycled) is free again, so any worker takes it up. Since a
client has at most one entry, taking the oldest serves the clients in turn, never one client's
many asks in a row.
"""

from __future__ import annotations

from typing import Protocol

from flask import Flask

from webapp.review.redis_queue import RedisReviewQueue
from webapp.review.sqlite_queue import SqliteReviewQueue


class ReviewQueue(Protocol):
    """The games' review texts and the shared queue of reviews. Every method raises one of
    `STORE_ERRORS` when the store fails."""

    where: str  # the store, as logs name it

    def review(self, game_id: str) -> str | None:
        """The text kept beside the game for its review, or None when there is none or the game
        is gone."""

    def replace_review(self, game_id: str, expected: str | None, review: str) -> bool:
        """Keep `review` beside the game if the text kept there is still `expected` (None: no
        review yet); False, writing nothing, otherwise or when the game is gone."""

    def add(self, game_id: str, address: str, session: str, now: float) -> bool:
        """Queue the game's review for this client, or, if the game is queued already, free it
        to be taken at once (a lost review asked for again); False, changing nothing, when this
        address or this session has another game's review queued or running."""

    def waiting(self, now: float) -> int:
        """How many entries nobody holds."""

    def take(self, holder: str, lease: float, now: float) -> str | None:
        """The oldest entry nobody holds (never taken, or its lease ran out), now held by
        `holder` for `lease` seconds; None when there is none."""

    def renew(self, game_id: str, holder: str, lease: float, now: float) -> bool:
        """Extend the holder's lease; False if the entry is no longer its own."""

    def remove(self, game_id: str, holder: str) -> None:
        """Drop the entry, if the holder still holds it: its review is over."""


def review_queue(app: Flask) -> ReviewQueue:
    """The queue kept in the same store as the app's games."""
    games = app.extensions["games"]
    if app.config["SESSION_BACKEND"] == "redis":
        return RedisReviewQueue(games.client)
    return SqliteReviewQueue(games.database, games.retention)
