"""The shared queue of reviews: one waiting or running per client address and per session,
clients served in turn, and a review whose worker died taken up again, on both stores."""

from __future__ import annotations

import time

import pytest

from harness.live_server import production_server
from tests.web_support import STORES, redis_settings
from tests.history_support import (
    ask, play, player_at, start_a_long_review, stop_review, wait_for_review,
)
from webapp.review import WORKER, start_worker
from webapp.review import model as reviews
from webapp.review.model import LEASE_SECONDS, Review

ONE_AT_A_TIME = "Another review asked for from this connection is still going"
@pytest.fixture(params=STORES)
def queue_app(request, make_web_app, tmp_path):
    """An app on each store, its moves and reviews budgets out of the way."""
    settings = {"MOVE_RATE_LIMIT": "100000/second", "REVIEW_RATE_LIMIT": "1000/minute"}
    if request.param != "sqlite":
        settings |= redis_settings(request, request.param)
    return make_web_app(tmp_path / "instance", **settings)


@pytest.fixture
def long_review(queue_app, make_player):
    """A player on 198.51.100.1 whose long review keeps the review thread busy (the reviews
    asked for meanwhile wait); stopped after the test whatever happens."""
    player = player_at(queue_app, make_player, "198.51.100.1")
    start_a_long_review(queue_app, player)
    game_id = player.game
    yield player
    if queue_app.extensions[WORKER].stored(game_id).active:
        stop_review(queue_app, game_id)


def test_one_review_at_a_time_per_address_and_per_session(queue_app, make_player, session_store,
                                                          long_review):
    store, long_game_id = session_store(queue_app), long_review.game
    neighbour = player_at(queue_app, make_player, "198.51.100.1")  # the same address
    play(neighbour, store, moves=3)
    refused = ask(neighbour)
    assert refused.status_code == 429 and ONE_AT_A_TIME in refused.text
    assert int(refused.headers["Retry-After"]) >= 1
    assert queue_app.extensions[WORKER].stored(neighbour.game) is None

    assert long_review.post("/new").status_code == 200  # the same session, a new game
    play(long_review, store, moves=3)
    long_review.client.environ_base["REMOTE_ADDR"] = "203.0.113.7"  # from another address
    assert ONE_AT_A_TIME in ask(long_review).text

    elsewhere = player_at(queue_app, make_player, "192.0.2.1")
    play(elsewhere, store, moves=3)
    assert ask(elsewhere).status_code == 200  # the positive control

    stop_review(queue_app, long_game_id)
    assert wait_for_review(queue_app, elsewhere.game).state == reviews.DONE
    assert ask(neighbour).status_code == 200  # the address's review is over: its turn now
    assert wait_for_review(queue_app, neighbour.game).state == reviews.DONE


def test_clients_are_served_in_turn_not_in_the_order_of_their_asks(
        queue_app, make_player, session_store, long_review):
    store = session_store(queue_app)
    first, second, other = (player_at(queue_app, make_player, address)
                            for address in ("192.0.2.1", "192.0.2.1", "192.0.2.2"))
    for player in (first, second, other):
        play(player, store, moves=3)
    assert [ask(player).status_code for player in (first, second, other)] == [200, 429, 200]
    stop_review(queue_app, long_review.game)
    wait_for_review(queue_app, first.game)
    assert ask(second).status_code == 200  # asked again: behind the other client's review
    finished = {name: wait_for_review(queue_app, player.game).updated
                for name, player in (("other", other), ("second", second))}
    assert finished["other"] < finished["second"]


def test_a_review_leaves_the_queue_before_it_reads_as_done(queue_app, make_player,
                                                          session_store, monkeypatch):
    """So its client, seeing it finished, may ask for another review at once. (Watched on the
    queue's class: another app of this process on the same Redis may be the one to run it.)"""
    worker = queue_app.extensions[WORKER]
    player = make_player(queue_app.test_client())
    play(player, session_store(queue_app), moves=3)
    states_at_removal = []
    remove = type(worker.queue).remove

    def observed_remove(self, game_id, holder):
        if game_id == player.game:
            states_at_removal.append(worker.stored(game_id).state)
        return remove(self, game_id, holder)

    monkeypatch.setattr(type(worker.queue), "remove", observed_remove)
    assert ask(player).status_code == 200
    assert wait_for_review(queue_app, player.game).state == reviews.DONE
    assert states_at_removal[0] == reviews.RUNNING


def lost_review(app, player, store, lease: float, quiet_for: float) -> None:
    """Play six moves and leave their review as a worker killed while running it would: the
    queue's entry held on a lease of `lease` seconds, the progress last written `quiet_for`
    seconds ago."""
    play(player, store, moves=6)
    games, queue = app.extensions["games"], app.extensions[WORKER].queue
    history = games.get(player.game).game.history
    now = time.time()
    assert queue.add(player.game, "203.0.113.9", "session:killed", now)
    assert queue.take("killed worker", lease, now) == player.game
    running = Review.asked(history).progressed(2)
    running = Review(running.moves, running.digest, running.state, running.done, now - quiet_for)
    assert queue.replace_review(player.game, None, running.to_text())


def test_a_review_whose_worker_died_is_taken_up_when_its_lease_runs_out(
        queue_app, make_player, session_store):
    player = make_player(queue_app.test_client())
    lost_review(queue_app, player, session_store(queue_app), lease=0, quiet_for=0)
    start_worker(queue_app)  # as gunicorn starts it in each worker process, after the fork
    review = wait_for_review(queue_app, player.game)  # no ask: the thread looks by itself
    assert review.state == reviews.DONE and review.moves == 6


@pytest.mark.slow  # gunicorn's start, and the solver's first search in its worker
def test_each_gunicorn_worker_process_takes_up_a_lost_review_unasked(tmp_path, make_web_app,
                                                                   make_player, session_store):
    """Production's gunicorn starts the review thread in each worker process after the fork
    (post_fork in gunicorn.conf.py): a review lost by a dead worker is done with no request."""
    database = tmp_path / "games.sqlite3"
    app = make_web_app(tmp_path / "instance", SQLITE_PATH=str(database),
                       MOVE_RATE_LIMIT="100000/second")
    player = make_player(app.test_client())
    lost_review(app, player, session_store(app), lease=0, quiet_for=0)
    with production_server(SQLITE_PATH=str(database), SOLVER_WARM_UP="0"):
        review = wait_for_review(app, player.game)
    assert review.state == reviews.DONE and review.moves == 6
    assert app.extensions[WORKER].thread is None  # done by gunicorn's worker, not this app


def test_the_owners_ask_after_a_lost_review_starts_it_again_at_once(
        queue_app, make_player, session_store):
    player = make_player(queue_app.test_client())
    lost_review(queue_app, player, session_store(queue_app), lease=3600,
                quiet_for=LEASE_SECONDS + 1)
    page = player.client.get(f"/games/{player.game}/review").text
    assert 'data-going="false"' in page and 'id="review-ask"' in page  # no longer going
    asked = ask(player)
    assert asked.status_code == 200 and 'data-going="true"' in asked.text
    review = wait_for_review(queue_app, player.game)  # long before the dead worker's lease ends
    assert review.state == reviews.DONE and review.moves == 6
