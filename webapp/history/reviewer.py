"""Reviews run in the background, on one thread of each worker process, from one queue that
every worker shares (`webapp.history.review_queue`, kept in the store).

Asking puts the game in the queue (one review waiting or running per client address and per
session, at most MAX_WAITING waiting in all) and marks its review queued. Each worker's review
thread takes the oldest waiting review, on a lease of LEASE_SECONDS renewed with every progress
write (about once a second); if the worker dies (kill -9, a deploy, gunicorn recycling it), the
lease runs out and whichever worker looks next (each looks at least every IDLE_POLL_SECONDS)
takes the review up again from its start. The owner's ask after a lost review queues it again
at once.

The thread has its own `engine.solver.Solver` (its own tables and one transposition cache), so
hints never wait for it, and it runs at a lower CPU priority than the threads serving players
(a niceness of its own on Linux, where every thread can have one): a player's move is served
first, and the review takes what time is left.

The review looks as "fast" does but one move less ahead on crowded boards (REVIEW_SETTING), so
that a long game's review fits its minute; what that costs and how often it agrees with "fast"
is measured by bench/history_review.py (figures in the README).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from contextlib import suppress
from functools import cache

from engine.solver import SETTINGS, Solver, default_cache_dir
from engine.solver.verdicts import in_points
from webapp.history import reviews
from webapp.history.analysis import review_game
from webapp.history.review_queue import ReviewQueue
from webapp.history.reviews import LEASE_SECONDS, QUEUED, RUNNING, Review
from webapp.store.errors import STORE_ERRORS
from webapp.store.game_store import GameStore
from webapp.store.records import GameRecord

log = logging.getLogger(__name__)

REVIEW_SETTING = dataclasses.replace(SETTINGS["fast"], name="review",
                                     depth_offset=SETTINGS["fast"].depth_offset + 1)
MAX_WAITING = 8
PROGRESS_EVERY = 1.0  # seconds between two writes of the progress (each renews the lease)
IDLE_POLL_SECONDS = 1.0  # how often an idle review thread looks at the queue
NICENESS = 10  # added to the review thread's niceness: players' threads come first


class ReviewerBusy(Exception):
    """MAX_WAITING reviews wait already; ask again later."""


class ReviewGoing(Exception):
    """This client address or session has another review waiting or running."""


class Stopped(Exception):
    """The review's stored state or its lease changed hands: this run is no longer wanted."""


class Reviewer:
    """Asks for the reviews of one app's games (`ask`, from request threads) and runs them
    (`run_next`, on the process's review thread)."""

    def __init__(self, games: GameStore, queue: ReviewQueue) -> None:
        self.games, self.queue = games, queue

    def ask(self, record: GameRecord, address: str, session: str) -> Review:
        """The game's review, asked for now unless one of its current moves is done or going
        on; ReviewerBusy when too many wait, ReviewGoing when this client has another one."""
        history = record.game.history
        text = self.games.review(record.id)
        stored = reviews.read(text)
        if stored and stored.covers(history) and stored.moves == len(history) and (
                stored.state == reviews.DONE or stored.active):
            return stored
        now = time.time()
        if self.queue.waiting(now) >= MAX_WAITING:
            raise ReviewerBusy
        if not self.queue.add(record.id, address, session, now):
            raise ReviewGoing
        asked = Review.asked(history)
        if not self.games.replace_review(record.id, text, asked.to_text()):
            return reviews.read(self.games.review(record.id)) or asked  # another request won
        _thread.serve(self)
        return asked

    def run_next(self, solver: Callable[[], Solver]) -> bool:
        """Take the oldest waiting review and run it with `solver()`; False when none waits."""
        holder = uuid.uuid4().hex
        game_id = self.queue.take(holder, LEASE_SECONDS, time.time())
        if game_id is None:
            return False
        try:
            self._run(solver(), game_id, holder)
        finally:
            with suppress(*STORE_ERRORS):
                self.queue.remove(game_id, holder)
        return True

    def _run(self, solver: Solver, game_id: str, holder: str) -> None:
        """Review the game as its stored review asks (Stopped when the review or its lease was
        taken over meanwhile). A running review found here lost its worker: it starts again."""
        record = self.games.get(game_id)
        text = self.games.review(game_id)
        review = reviews.read(text)
        if record is None or review is None or review.state not in (QUEUED, RUNNING):
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
            if new.state == RUNNING and not self.queue.renew(game_id, holder, LEASE_SECONDS,
                                                             time.time()):
                raise Stopped

        def progress(done: int) -> None:
            if time.monotonic() - written_at >= PROGRESS_EVERY:
                write(review.progressed(done))

        write(review.progressed(0))
        try:
            analysis = review_game(
                history, review.moves,
                lambda rows: solver.evaluate_moves(rows, REVIEW_SETTING), progress,
                in_points(REVIEW_SETTING))
        except Stopped:
            raise
        except Exception:
            with suppress(Stopped, *STORE_ERRORS):
                write(review.failed())
            raise
        # Out of the queue before it reads as done: a client that sees its review finished may
        # ask for another at once, and is not told one of its reviews is still going.
        self.queue.remove(game_id, holder)
        write(review.finished(analysis))


class _ReviewThread:
    """The one thread of this process that runs reviews, with its own solver, for every app of
    the process that served a request. Started on first use in each process (a fork carries no
    threads, and gunicorn builds the app before it forks its workers). A fork waits until the
    thread is between two looks at the queues (after the review it runs, if any): a fork taken
    while the thread was inside SQLite would leave the child a lock of SQLite's held for ever,
    and the child's first connection would hang."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._looking = threading.Lock()  # held while the thread looks at the queues
        self._pid = 0
        self._reviewers: weakref.WeakSet[Reviewer] = weakref.WeakSet()
        self._asked = threading.Event()
        self._unreachable: weakref.WeakSet[Reviewer] = weakref.WeakSet()  # warned of, once
        os.register_at_fork(before=self._looking.acquire,
                            after_in_parent=self._looking.release,
                            after_in_child=self._looking.release)

    def serve(self, reviewer: Reviewer) -> None:
        """Run `reviewer`'s reviews too, the thread started if need be, and look at once."""
        with self._lock:
            if self._pid != os.getpid():
                self._pid, self._reviewers = os.getpid(), weakref.WeakSet()
                threading.Thread(target=self._run, name="reviewer", daemon=True).start()
            self._reviewers.add(reviewer)
        self._asked.set()

    def watch(self, reviewer: Reviewer) -> None:
        """Run `reviewer`'s reviews too (cheap enough for every request)."""
        if self._pid != os.getpid() or reviewer not in self._reviewers:
            self.serve(reviewer)

    def _run(self) -> None:
        _lower_priority()
        solver = cache(lambda: Solver(default_cache_dir(), max_searches=1))  # made when needed
        while True:
            self._asked.clear()
            with self._lock:
                reviewers = list(self._reviewers)
            with self._looking:
                looked = [self._run_one(reviewer, solver) for reviewer in reviewers]
            if not any(looked):
                self._asked.wait(IDLE_POLL_SECONDS)

    def _run_one(self, reviewer: Reviewer, solver: Callable[[], Solver]) -> bool:
        """Run the reviewer's next review; whether to look again at once. An unreachable store
        is logged once per outage, not at every look."""
        try:
            again = reviewer.run_next(solver)
            if reviewer in self._unreachable:
                self._unreachable.discard(reviewer)
                log.info("the review queue can be reached again")
            return again
        except Stopped:
            log.info("a review was given up: asked for again, or taken up elsewhere")
        except STORE_ERRORS as error:  # the store is out of reach: look again later
            if reviewer not in self._unreachable:
                self._unreachable.add(reviewer)
                log.warning("the review queue could not be read or written: %r", error)
            return False
        except Exception:  # a review must never take the thread down with it
            log.exception("a review failed")
        return True


_thread = _ReviewThread()


def watch(reviewer: Reviewer) -> None:
    """Have this process's review thread run `reviewer`'s reviews (each request calls this, so
    that every worker takes up reviews, also those another worker lost)."""
    _thread.watch(reviewer)


def _lower_priority() -> None:
    """Lower this thread's CPU priority (Linux: a thread id is a process id for setpriority)."""
    try:
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, os.getpriority(os.PRIO_PROCESS, thread) + NICENESS)
    except (AttributeError, OSError) as error:
        log.warning("the review thread keeps its priority: %r", error)
