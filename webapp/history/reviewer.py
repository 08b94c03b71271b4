"""Reviews run in the background: one at a time per worker process, on a thread of its own.

The thread has its own `engine.solver.Solver` (its own tables and one transposition cache), so
hints never wait for it, and it runs at a lower CPU priority than the threads serving players
(a niceness of its own on Linux, where every thread can have one): a player's move is served
first, and the review takes what time is left. A review asked for is marked queued in the store
at once and its progress written there about once a second, so whichever worker answers the
page's polling can tell how far it has got; at most MAX_WAITING wait in one process.

The review looks as "fast" does but at most five moves ahead ("review"): on the 20,000-move game
of bench/history_review.py that takes under half of fast's time, and agrees with fast on the
best move in 94% of positions and on all but a few of the costly moves.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import queue
import threading
import time
from contextlib import suppress

from engine.solver import SETTINGS, Solver, default_cache_dir
from webapp.history import reviews
from webapp.history.analysis import review_game
from webapp.history.reviews import QUEUED, Review
from webapp.store.errors import STORE_ERRORS
from webapp.store.games import GameStore
from webapp.store.records import GameRecord

log = logging.getLogger(__name__)

REVIEW_SETTING = dataclasses.replace(SETTINGS["fast"], name="review", max_depth=5)
MAX_WAITING = 8
PROGRESS_EVERY = 1.0  # seconds between two writes of the progress
NICENESS = 10  # added to the review thread's niceness: players' threads come first


class ReviewerBusy(Exception):
    """Too many reviews wait in this process; ask again later."""


class Stopped(Exception):
    """The review's stored state was changed by someone else: this run is no longer wanted."""


class Reviewer:
    """Asks for the reviews of one app's games (`ask`, from request threads); the process's
    review thread runs them."""

    def __init__(self, games: GameStore) -> None:
        self.games = games

    def ask(self, record: GameRecord) -> Review:
        """The game's review, asked for now unless one of its current moves is done or going
        on; ReviewerBusy when too many wait."""
        history = record.game.history
        text = self.games.review(record.id)
        stored = reviews.read(text)
        if stored and stored.covers(history) and stored.moves == len(history) and (
                stored.state == reviews.DONE or stored.active):
            return stored
        waiting = _thread.waiting()
        if waiting.full():
            raise ReviewerBusy
        asked = Review.asked(history)
        if not self.games.replace_review(record.id, text, asked.to_text()):
            return reviews.read(self.games.review(record.id)) or asked  # another request won
        try:
            waiting.put_nowait((self, record.id))
        except queue.Full:  # filled by another request since the look above
            self.games.replace_review(record.id, asked.to_text(), asked.failed().to_text())
            raise ReviewerBusy from None
        return asked

    def run(self, solver: Solver, game_id: str) -> None:
        """Review the game as its stored review asks (on the review thread; Stopped when the
        stored review was changed by someone else meanwhile)."""
        record = self.games.get(game_id)
        text = self.games.review(game_id)
        review = reviews.read(text)
        if record is None or review is None or review.state != QUEUED:
            return
        history = record.game.history
        if not review.covers(history):  # its moves were taken back since: nothing to review
            return
        written_at = 0.0

        def write(new: Review) -> None:
            nonlocal text, written_at
            if not self.games.replace_review(game_id, text, new.to_text()):
                raise Stopped
            text, written_at = new.to_text(), time.monotonic()

        def progress(done: int) -> None:
            if time.monotonic() - written_at >= PROGRESS_EVERY:
                write(review.progressed(done))

        write(review.progressed(0))
        try:
            analysis = review_game(
                history, review.moves,
                lambda rows: solver.evaluate_moves(rows, REVIEW_SETTING), progress)
        except Stopped:
            raise
        except Exception:
            with suppress(Stopped, *STORE_ERRORS):
                write(review.failed())
            raise
        write(review.finished(analysis))


class _ReviewThread:
    """The one thread of this process that runs reviews, in the order they were asked for,
    with its own solver. Started on first use in each process (a fork carries no threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = 0
        self._waiting: queue.Queue[tuple[Reviewer, str]] = queue.Queue(MAX_WAITING)

    def waiting(self) -> queue.Queue[tuple[Reviewer, str]]:
        """The queue of reviews to run, the thread running them started if need be."""
        with self._lock:
            if self._pid != os.getpid():
                self._pid, self._waiting = os.getpid(), queue.Queue(MAX_WAITING)
                threading.Thread(target=self._run, name="reviewer", daemon=True).start()
            return self._waiting

    def _run(self) -> None:
        _lower_priority()
        solver = Solver(default_cache_dir(), max_searches=1)
        while True:
            reviewer, game_id = self._waiting.get()
            try:
                reviewer.run(solver, game_id)
            except Stopped:
                log.info("review of game %s given up: asked for again elsewhere", game_id)
            except Exception:  # a review must never take the thread down with it
                log.exception("review of game %s failed", game_id)


_thread = _ReviewThread()


def _lower_priority() -> None:
    """Lower this thread's CPU priority (Linux: a thread id is a process id for setpriority)."""
    try:
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, os.getpriority(os.PRIO_PROCESS, thread) + NICENESS)
    except (AttributeError, OSError) as error:
        log.warning("the review thread keeps its priority: %r", error)
