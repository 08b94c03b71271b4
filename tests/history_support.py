"""Helpers for the history's tests: games played through the routes, and waiting for a review."""

from __future__ import annotations

import time

from webapp.history import reviews

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
        review = reviews.read(app.extensions["games"].review(game_id))
        if review is not None and review.state in (reviews.DONE, reviews.FAILED):
            return review
        time.sleep(0.2)
    raise AssertionError(f"no finished review of {game_id} after {REVIEW_TIMEOUT_S} s")
