"""Reviews run in the background, on a thread of the app's own in each worker process, from one
queue that every worker shares (`webapp.review.queue`, kept in the store).

Asking puts the game in the queue (one review waiting or running per client address and per
session, at most MAX_WAITING waiting in all) and marks its review queued. The thread takes the
oldest waiting review, on a lease of LEASE_SECONDS renewed with every progress write (about once
a second); if the worker dies (kill -9, a deploy, gunicorn recycling it), the lease runs out and
whichever worker looks next (each looks at least every IDLE_POLL_SECONDS) takes the review up
again from its start. The owner's ask after a lost review queues it again at once.

The thread starts after the fork, never before (a fork carries no threads, and gunicorn builds
the app before it forks its workers): in each gunicorn worker as it starts (``post_fork`` in
gunicorn.conf.py calls `ReviewWorker.start`), so that every worker also takes up the reviews
another one lost, and otherwise on the first ask.

The thread has its own `engine.solver.Solver` (its own tables and one transposition cache), so
hints never wait for it, and it runs at a lower CPU priority than the threads serving players
(a niceness of its own on Linux, where every thread can have one): a player's move is served
first, and the review takes what time is left.

The review looks as far ahead as the hint and auto-play (the app's SOLVER_SETTING), so that "the
solver's move" is the same move wherever the page names one: a game auto-play played is the
solver's own at every move. A long game's review still fits its minute
(bench/history_review.py; figures in docs/performance.md).
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections.abc import Callable
from contextlib import suppress
from functools import cache

from engine.solver import Setting, Solver, default_cache_dir
from engine.solver.verdicts import in_points
from webapp.review import model
from webapp.review.analysis import review_game
from webapp.review.model import LEASE_SECONDS, QUEUED, RUNNING, Review
from webapp.review.queue import ReviewQueue
from webapp.store.errors import STORE_ERRORS, fault_text
from webapp.store.game_record import GameRecord
from webapp.store.game_store import GameStore

log = logging.getLogger(__name__)

MAX_WAITING = 8
PROGRESS_EVERY = 1.0  # seconds between two writes of the progress (each renews the lease)
IDLE_POLL_SECONDS = 1.0  # how often an idle review thread looks at the queue
NICENESS = 10  # added to the review thread's niceness: players' threads come first


class ReviewerBusy(Exception):
    """MAX_WAITING reviews wait already; ask again later."""


class ReviewGoing(Exception):
    """This client address or session has another review waiting or running."""


class _GivenUp(Exception):
    """Raised by the progress callback to leave the analysis: the run is no longer wanted."""


class ReviewWorker:
    """One app's reviews: asked for from request threads (`ask`), read (`stored`), and run on
    the app's review thread (`start`, `stop`)."""

    def __init__(self, games: GameStore, queue: ReviewQueue, setting: Setting) -> None:
        self.games, self.queue, self.setting = games, queue, setting
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        self._asked = threading.Event()
        self._stopping = threading.Event()

    def stored(self, game_id: str) -> Review | None:
        """The game's stored review, if it has one that reads back."""
        return model.read(self.queue.review(game_id))

    def ask(self, record: GameRecord, address: str, session: str) -> Review:
        """The game's review, asked for now unless one of its current moves is done or going
        on; ReviewerBusy when too many wait, ReviewGoing when this client has another one."""
        history = record.game.history
        text = self.queue.review(record.id)
        stored = model.read(text)
        if stored and stored.covers(history) and stored.moves == len(history) and (
                stored.state == model.DONE or stored.active):
            return stored
        now = time.time()
        if self.queue.waiting(now) >= MAX_WAITING:
            raise ReviewerBusy
        if not self.queue.add(record.id, address, session, now):
            raise ReviewGoing
        asked = Review.asked(history)
        if not self.queue.replace_review(record.id, text, asked.to_text()):
            return model.read(self.queue.review(record.id)) or asked  # another request won
        self.start()
        self._asked.set()
        return asked

    def start(self) -> None:
        """Start this process's review thread, unless it runs already."""
        with self._starting:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stopping.clear()
            self._thread = threading.Thread(target=self._serve, name="reviewer", daemon=True)
            self._thread.start()

    def stop(self, timeout: float | None = None) -> None:
        """Stop the review thread: a review it runs is given up at its next progress (its lease
        runs out, and the owner may ask again)."""
        self._stopping.set()
        self._asked.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def thread(self) -> threading.Thread | None:
        """The review thread, once started."""
        return self._thread

    def _serve(self) -> None:
        """The review thread: look at the queue when asked, or every IDLE_POLL_SECONDS. An
        unreachable store is logged once per outage, not at every look."""
        _lower_priority()
        solver = cache(lambda: Solver(default_cache_dir(), max_searches=1))  # made when needed
        unreachable = False
        while not self._stopping.is_set():
            self._asked.clear()
            try:
                looked = self.run_next(solver)
            except STORE_ERRORS as error:  # the store is out of reach: look again later
                if not unreachable:
                    log.warning("the review queue (%s) could not be read or written: %s",
                                self.queue.where, fault_text(error))
                unreachable, looked = True, False
            except Exception:  # a review must never take the thread down with it
                log.exception("a review failed")
                looked = True
            else:
                if unreachable:
                    log.info("the review queue can be reached again")
                unreachable = False
            if not looked:
                self._asked.wait(IDLE_POLL_SECONDS)

    def run_next(self, solver: Callable[[], Solver]) -> bool:
        """Take the oldest waiting review and run it with `solver()`; False when none waits."""
        holder = uuid.uuid4().hex
        game_id = self.queue.take(holder, LEASE_SECONDS, time.time())
        if game_id is None:
            return False
        try:
            if not self._run(solver(), game_id, holder):
                log.info("a review was given up: asked for again, or taken up elsewhere")
        finally:
            with suppress(*STORE_ERRORS):
                self.queue.remove(game_id, holder)
        return True

    def _run(self, solver: Solver, game_id: str, holder: str) -> bool:
        """Review the game as its stored review asks; False when the run was given up (its
        review or its lease taken over meanwhile, or the thread stopping). A running review
        found here lost its worker: it starts again."""
        record = self.games.get(game_id)
        text = self.queue.review(game_id)
        review = model.read(text)
        if record is None or review is None or review.state not in (QUEUED, RUNNING):
            return True
        history = record.game.history
        if not review.covers(history):  # its moves were taken back since: nothing to review
            return True
        written_at = 0.0

        def write(new: Review) -> bool:
            """Store `new` over the text read, renewing the lease while it runs; whether this
            run still holds the review."""
            nonlocal text, written_at
            if not self.queue.replace_review(game_id, text, new.to_text()):
                return False
            text, written_at = new.to_text(), time.monotonic()
            return new.state != RUNNING or self.queue.renew(game_id, holder, LEASE_SECONDS,
                                                           time.time())

        def progress(done: int) -> None:
            if self._stopping.is_set() or (time.monotonic() - written_at >= PROGRESS_EVERY
                                           and not write(review.progressed(done))):
                raise _GivenUp

        if not write(review.progressed(0)):
            return False
        try:
            analysis = review_game(
                history, review.moves,
                lambda rows: solver.evaluate_moves(rows, self.setting), progress,
                in_points(self.setting))
        except _GivenUp:
            return False
        except Exception:
            with suppress(*STORE_ERRORS):
                write(review.failed())
            raise
        # Out of the queue before it reads as done: a client that sees its review finished may
        # ask for another at once, and is not told one of its reviews is still going.
        self.queue.remove(game_id, holder)
        return write(review.finished(analysis))


def _lower_priority() -> None:
    """Lower this thread's CPU priority (Linux: a thread id is a process id for setpriority)."""
    try:
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, os.getpriority(os.PRIO_PROCESS, thread) + NICENESS)
    except (AttributeError, OSError) as error:
        log.warning("the review thread keeps its priority: %s", error)
