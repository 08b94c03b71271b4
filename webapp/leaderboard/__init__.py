"""The leaderboard, which players know as the records table (``/records``): finished games
entered under a name, each proved by replaying its history from its seed, in an all-time table
and one per daily game's day.

``names`` (what a name may be), ``verify`` (which games may enter), ``entering``, ``routes``
and ``commands`` (the operator's ``flask records ...``); ``entry`` (an entry, and what every
table store offers) and its two stores, kept beside the games: ``sqlite_table`` (the
``record_table`` table) and ``redis_table`` (the ``{records}:*`` keys).
"""

from __future__ import annotations

from flask import Flask, current_app

from webapp.leaderboard.entry import LeaderboardTable
from webapp.leaderboard.redis_table import RedisLeaderboardTable, rename_untagged_keys
from webapp.leaderboard.sqlite_table import SqliteLeaderboardTable

#: Where an app keeps its `LeaderboardTable`.
TABLE = "leaderboard_table"


def init_leaderboard(app: Flask) -> None:
    """Give the app its table, in the same store as its games (on Redis, its keys renamed first
    if they are still named as before their hash tag)."""
    games = app.extensions["games"]
    if app.config["SESSION_BACKEND"] == "redis":
        rename_untagged_keys(games.client)
        app.extensions[TABLE] = RedisLeaderboardTable(games.writes)
    else:
        app.extensions[TABLE] = SqliteLeaderboardTable(games.database)


def leaderboard_table() -> LeaderboardTable:
    """The current app's table."""
    return current_app.extensions[TABLE]
