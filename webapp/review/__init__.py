"""The solver's review of a game, as one wing: asked for by the game's player, run in the
background by a worker of the app's own, kept beside the game, shown on a page of its own (and
on the replay, as the better move where one was costly).

- `analysis`: the review itself (every position, the move played against the solver's), knowing
  nothing of the web;
- `model`: a review as it is kept: what was asked for, how far it has got, its result;
- `queue`: where reviews are kept, the review text beside each game and the queue of those
  waiting or running, in either store (`sqlite_queue`, `redis_queue`);
- `worker`: asking for a review, and the thread that runs them;
- `routes`, `view` (what its part of the page shows), `chart` (the chart's geometry).
"""

from __future__ import annotations

from flask import Flask, current_app

from engine.solver import SETTINGS
from webapp.review.queue import review_queue
from webapp.review.worker import ReviewWorker

#: Where an app keeps its `ReviewWorker`.
WORKER = "review_worker"


def init_review(app: Flask) -> None:
    """Give the app its review worker, on the store of its games and with the solver setting of
    its hints and auto-play; its thread starts later, in
    the process that serves (`start_worker`), or on the first ask."""
    app.extensions[WORKER] = ReviewWorker(app.extensions["games"], review_queue(app),
                                          SETTINGS[app.config["SOLVER_SETTING"]])


def start_worker(app: Flask) -> None:
    """Start the app's review thread in this process: gunicorn calls this in each worker process
    after the fork (``post_fork`` in gunicorn.conf.py), so that every worker takes up reviews,
    also those another one lost."""
    app.extensions[WORKER].start()


def review_worker() -> ReviewWorker:
    """The current app's review worker."""
    return current_app.extensions[WORKER]
