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

from engine.solver import SETTINGS, Solver
from engine.solver.tables import default_cache_dir
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
    """Asks for reviews (`ask`, from request threads) and runs them (its own thread)."""

    def __init__(self, games: GameStore) -> None:
        self.games = games
        self._waiting: queue.Queue[str] = queue.Queue(MAX_WAITING)
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._lock = threading.Lock()

    def ask(self, record: GameRecord) -> Review:
        """The game's review, asked for now unless one of its current moves is done or going
        on; ReviewerBusy when too many wait."""
        history = record.game.history
        text = self.games.review(record.id)
        stored = reviews.read(text)
        if stored and stored.covers(history) and stored.moves == len(history) and (
                stored.state == reviews.DONE or stored.active):
            return stored
        if self._waiting.full():
            raise ReviewerBusy
        asked = Review.asked(history)
        if not self.games.replace_review(record.id, text, asked.to_text()):
            return reviews.read(self.games.review(record.id)) or asked  # another request won
        try:
            self._waiting.put_nowait(record.id)
        except queue.Full:  # filled by another request since the look above
            self.games.replace_review(record.id, asked.to_text(), asked.failed().to_text())
            raise ReviewerBusy from None
        self._ensure_running()
        return asked

    def _ensure_running(self) -> None:
        """Start the thread in this process (a fork does not carry threads over)."""
        with self._lock:
            if self._thread is None or self._pid != os.getpid() or not self._thread.is_alive():
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._run, name="reviewer", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        _lower_priority()
        solver = Solver(default_cache_dir(), max_searches=1)
        while True:
            game_id = self._waiting.get()
            try:
                self._review(solver, game_id)
            except Stopped:
                log.info("review of game %s given up: asked for again elsewhere", game_id)
            except Exception:  # a review must never take the thread down with it
                log.exception("review of game %s failed", game_id)

    def _review(self, solver: Solver, game_id: str) -> None:
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


def _lower_priority() -> None:
    """Lower this thread's CPU priority (Linux: a thread id is a process id for setpriority)."""
    try:
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, os.getpriority(os.PRIO_PROCESS, thread) + NICENESS)
    except (AttributeError, OSError) as error:
        log.warning("the review thread keeps its priority: %r", error)
