"""A benchmark's yardstick: a route that only reads the session and writes it back.

bench/server_load.py compares the move route's throughput with this one's. The app registers it
only when the BENCH_BASELINE setting is on, which the benchmark sets and production never does.
"""

from __future__ import annotations

from flask import Blueprint, session

from webapp.limits import game_budget

bp = Blueprint("baseline", __name__)


@bp.post("/bench/session")
@game_budget  # the same limiter work as the move route it is measured against
def touch() -> str:
    """Read the stored game and store it again, unchanged."""
    session["game"] = session.get("game")
    return str(session.get("seq", 0))
