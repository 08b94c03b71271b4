"""A benchmark's yardstick: a route that only reads the session and writes it back.

bench/server_load.py compares the move route's throughput with this one's. It is registered only
when the BENCH_BASELINE setting is on, which the benchmark sets and production never does.
"""

from __future__ import annotations

from flask import Blueprint, Flask, session

bp = Blueprint("baseline", __name__)


@bp.post("/bench/session")
def touch() -> str:
    """Read the stored game and store it again, unchanged."""
    session["game"] = session.get("game")
    return str(session.get("seq", 0))


def init_baseline(app: Flask) -> None:
    """Register the route, if and only if app.config["BENCH_BASELINE"] is on."""
    if app.config.get("BENCH_BASELINE"):
        app.register_blueprint(bp)
