"""A benchmark's yardstick: a route that reads the current game's record and writes it back.

bench/server_load.py compares the move route's throughput with this one's: the difference is the
engine's move and the rendering. The app registers it only when the BENCH_BASELINE setting is
on, which the benchmark sets and production never does.
"""

from __future__ import annotations

from flask import Blueprint

from webapp.game import current
from webapp.limits import game_budget

bp = Blueprint("baseline", __name__)


@bp.post("/bench/session")
@game_budget  # the same limiter work as the move route it is measured against
def touch() -> str:
    """Read the current game and store it again, unchanged but for its version."""
    record, _lost = current.current()
    record, _event = current.change(record, lambda stored: ("touched", True))
    return str(record.seq)
