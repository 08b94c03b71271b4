"""Helpers for the history's tests: games played through the routes, asking for a review and
waiting for it, and a review that keeps the process's review thread busy."""

from __future__ import annotations

import time

from harness import long_game
from webapp.review import WORKER
from webapp.review import model as reviews

REVIEW_TIMEOUT_S = 300  # a busy 2-core machine, and the solver's first compile in this process


def play(player, store, moves: int | None = None) -> list[str]:
    """Play legal moves through the routes (the first legal one after a turn, so the game ends
    soon), until the game is over or `moves` were made; the directions played."""
    played = []
    sid = store.sid_of(player.client)
    while moves is None or len(played) < moves:
        legal = store.record(sid).game.legal_moves()
        if not legal:
            break
        direction = legal[len(played) % len(legal)]
        assert player.move(direction).status_code == 200
        played.append(direction)
    return played


def wait_for_review(app, game_id: str) -> reviews.Review:
    """The stored review once it is finished (or failed)."""
    deadline = time.monotonic() + REVIEW_TIMEOUT_S
    while time.monotonic() < deadline:
        review = app.extensions[WORKER].stored(game_id)
        if review is not None and review.state in (reviews.DONE, reviews.FAILED):
            return review
        time.sleep(0.2)
    raise AssertionError(f"no finished review of {game_id} after {REVIEW_TIMEOUT_S} s")


def ask(player):
    """The player asks for the review of its current game."""
    return player.post(f"/games/{player.game}/review")


def player_at(app, make_player, address: str):
    """A new player (a fresh session) on this client address."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return make_player(client)


def wait_for_state(app, game_id: str, state: str) -> reviews.Review:
    """The stored review once it is in `state`."""
    deadline = time.monotonic() + REVIEW_TIMEOUT_S
    while (review := app.extensions[WORKER].stored(game_id)).state != state:
        assert time.monotonic() < deadline, f"the review of {game_id} is still {review.state}"
        time.sleep(0.05)
    return review


def start_a_long_review(app, player) -> None:
    """Give the player's game the 20,000 moves of tests/data/long_game.json and ask for its review;
    return once the review thread runs it: reviews asked for from now on wait."""
    games = app.extensions["games"]
    record = games.get(player.game)
    record.game, record.played = long_game.load(), True
    assert games.replace(record)
    assert ask(player).status_code == 200
    wait_for_state(app, player.game, reviews.RUNNING)


def stop_review(app, game_id: str) -> None:
    """Mark the review failed, as another worker could: its thread gives it up at its next
    write. The thread writes its progress about once a second, so the write is tried again on
    the text read anew when the thread wrote in between (the store's compare-and-set)."""
    queue = app.extensions[WORKER].queue
    for _ in range(20):
        text = queue.review(game_id)
        if queue.replace_review(game_id, text, reviews.read(text).failed().to_text()):
            return
    raise AssertionError(f"the review of {game_id} changed under every one of 20 writes")
