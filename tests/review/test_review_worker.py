"""The review worker belongs to its app: its thread starts on the first ask (or when gunicorn
starts a worker process: test_review_queue.py), never on an ordinary request, and stops when
told, giving up the review it runs."""

from __future__ import annotations

import time

from tests.history_support import ask, play, start_a_long_review
from webapp.review import WORKER
from webapp.review import model as reviews

STOP_WITHIN_S = 30  # far less than the long review takes


def test_serving_pages_and_moves_starts_no_review_thread(app, player, store):
    play(player, store, moves=3)
    for path in ("/", f"/games/{player.game}", f"/games/{player.game}/review", "/games"):
        assert player.client.get(path).status_code == 200
    assert app.extensions[WORKER].thread is None
    assert ask(player).status_code == 200
    assert app.extensions[WORKER].thread.is_alive()  # the first ask starts it


def test_stopping_the_worker_gives_up_the_review_it_runs(app, make_player):
    player = make_player(app.test_client())
    start_a_long_review(app, player)  # 20,000 moves: minutes of work
    worker = app.extensions[WORKER]
    asked = time.monotonic()
    worker.stop(timeout=STOP_WITHIN_S)
    assert not worker.thread.is_alive() and time.monotonic() - asked < STOP_WITHIN_S
    review = worker.stored(player.game)
    assert review.state == reviews.RUNNING and review.done < review.moves  # left as it was
