"""A game's review as the store keeps it, beside the game: what was asked for (the first `moves`
moves, named by a digest of their directions), how far the review has got, and its result.

The text is JSON. Any process can answer the page's polling from it, whichever process runs the
review; a review whose writer went quiet for too long counts as abandoned and may be asked for
again (and is taken up again by another worker: `webapp.review.worker`). A game that went on
after its review still shows it, as the review of its first moves; a game whose first moves
changed since (taken back and played otherwise) shows none.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass, replace

from engine import History
from webapp.review.analysis import Analysis

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
STATES = (QUEUED, RUNNING, DONE, FAILED)
#: Seconds a worker holds a review it runs (its lease in `webapp.review.queue`): each
#: write of its progress, about once a second, renews it. A running review not written to for
#: longer has lost its worker; another takes it up, or the owner's ask queues it again.
LEASE_SECONDS = 15.0
#: Seconds after which a review that is not written to any more counts as abandoned: a running
#: one after its lease; a queued one waits in the shared queue, which no worker's exit loses,
#: for a few long reviews at most.
ABANDONED_AFTER = {RUNNING: LEASE_SECONDS, QUEUED: 15 * 60.0}


def digest(history: History, moves: int) -> str:
    """Names the first `moves` moves of a game: equal only for the same moves."""
    letters = "".join(direction[0] for direction in history.directions()[:moves])
    return hashlib.sha256(letters.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Review:
    """The review of a game's first `moves` moves, `done` of them reviewed so far."""

    moves: int
    digest: str
    state: str
    done: int = 0
    updated: float = 0.0
    analysis: Analysis | None = None

    @classmethod
    def asked(cls, history: History) -> Review:
        """A review of every move the game has so far, waiting for its turn."""
        return cls(len(history), digest(history, len(history)), QUEUED, updated=time.time())

    def progressed(self, done: int) -> Review:
        return replace(self, state=RUNNING, done=done, updated=time.time())

    def finished(self, analysis: Analysis) -> Review:
        return replace(self, state=DONE, done=self.moves, updated=time.time(), analysis=analysis)

    def failed(self) -> Review:
        return replace(self, state=FAILED, updated=time.time())

    def covers(self, history: History) -> bool:
        """True if this is a review of the first moves of the game whose history this is."""
        return self.moves <= len(history) and digest(history, self.moves) == self.digest

    @property
    def active(self) -> bool:
        """Queued or running, and written to recently enough to be going on."""
        limit = ABANDONED_AFTER.get(self.state)
        return limit is not None and time.time() - self.updated < limit

    def to_text(self) -> str:
        data = {"moves": self.moves, "digest": self.digest, "state": self.state,
                "done": self.done, "updated": self.updated,
                "analysis": self.analysis.to_dict() if self.analysis else None}
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> Review:
        """Read `to_text`'s form back; ValueError for anything else."""
        try:
            data = json.loads(text)
            analysis = Analysis.from_dict(data["analysis"]) if data["analysis"] else None
            review = cls(int(data["moves"]), str(data["digest"]), str(data["state"]),
                         int(data["done"]), float(data["updated"]), analysis)
        except (TypeError, KeyError, ValueError) as error:
            raise ValueError(f"not a stored review: {error!r}") from None
        if review.state not in STATES or (review.state == DONE) != (analysis is not None):
            raise ValueError(f"not a stored review: state {review.state!r}")
        return review


def read(text: str | None) -> Review | None:
    """The stored review, or None when there is none or it does not read back."""
    if text is None:
        return None
    try:
        return Review.from_text(text)
    except ValueError as error:
        log.warning("a stored review does not read back, ignored: %s", error)
        return None
