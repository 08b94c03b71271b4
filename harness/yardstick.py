"""A benchmark's yardstick: a route that reads the current game's record and writes it back.

bench/server_load.py compares the move route's throughput with this one's: the difference is the
engine's move and the rendering. It is not part of the app: `bench_app` builds the production
app and adds this route to it, for the benchmarks' server only (gunicorn serves it as
`harness.live_server.YARDSTICK_APP`).
"""

from __future__ import annotations

import os

from flask import Blueprint, Flask

from webapp.game import current
from webapp.traffic.budgets import game_budget

bp = Blueprint("yardstick", __name__)


@bp.post("/bench/session")
@game_budget  # the same limiter work as the move route it is measured against
def touch() -> str:
    """Read the current game and store it again, unchanged but for its version."""
    record, _lost = current.current()
    record, _event = current.change(record, lambda stored: ("touched", True))
    return str(record.seq)


def with_yardstick(app: Flask) -> Flask:
    """`app`, before its first request, with the yardstick route added."""
    app.register_blueprint(bp)
    return app


def bench_app(settings: dict | None = None) -> Flask:
    """The production app (settings from the environment, then `settings`) plus the yardstick
    route: what the benchmark's server serves."""
    from webapp import create_app
    from webapp.production import production_settings

    return with_yardstick(create_app({**production_settings(os.environ), **(settings or {})}))
