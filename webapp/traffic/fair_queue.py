"""Requests served fairly across clients: a WSGI middleware that lets a few of this process's
requests run the app at once and, when more wait, lets in first the client that has been
served least.

A budget (`webapp.traffic.budgets`) bounds what one client gets in a window, but within its budget a
client that sends its next request the moment the last is answered keeps requests waiting all
the time; served first come, first served, every other player's request would queue behind
them. Here each request waits for one of `slots` places (the app's work is Python, one thread
at a time under the GIL, so a few places lose no throughput), and a freed place goes to the
waiting request whose client address holds the fewest places, then has been let in least
lately (a count that halves every HALF_LIFE seconds), then came first. An idle server lets
every request straight in. A freed place wakes only the request it goes to (waking every
waiting thread to look for its turn cost each request a context switch and a turn of the GIL
per waiting thread).

Nothing is refused here: one player's tabs may retry the same move at once, and a class
behind one address may press keys in the same instant. What bounds a client that would keep
many threads waiting is its budget, and the held answers at the door (`webapp.traffic.gate`).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

#: Seconds in which an address's count of requests let in halves.
HALF_LIFE = 1.0
#: Addresses whose counts are kept; past it the counts of those with none running restart.
MAX_TRACKED = 10_000


@dataclass
class _Client:
    """One address's share of this process: places held, requests in (running or waiting),
    and its recent admissions, decayed to `stamp`."""

    running: int = 0
    inside: int = 0
    served: float = 0.0
    stamp: float = field(default_factory=time.monotonic)

    def recent(self, now: float) -> float:
        """How many requests this address was let in lately, as of `now`."""
        return self.served * 0.5 ** ((now - self.stamp) / HALF_LIFE)


class FairQueue:
    """Wraps a WSGI callable, running `slots` of its requests at once."""

    def __init__(self, wsgi_app: Callable, slots: int) -> None:
        self.wsgi_app, self.free = wsgi_app, slots
        self.clients: dict[str, _Client] = {}
        # arrival number -> (address, what wakes that request alone), in arrival order
        self.waiting: dict[int, tuple[str, threading.Condition]] = {}
        self.arrivals = itertools.count()
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        address = environ.get("REMOTE_ADDR", "")
        self._enter(address)
        try:
            return self.wsgi_app(environ, start_response)
        finally:
            self._leave(address)

    def _enter(self, address: str) -> None:
        """Wait for a place."""
        with self.lock:
            client = self._client(address)
            client.inside += 1
            number = next(self.arrivals)
            turn = threading.Condition(self.lock)
            self.waiting[number] = address, turn
            if self.free:
                self._choose()
            while number in self.waiting:
                turn.wait()
            now = time.monotonic()
            client.served, client.stamp = client.recent(now) + 1, now

    def _leave(self, address: str) -> None:
        with self.lock:
            client = self.clients[address]
            client.running -= 1
            client.inside -= 1
            self.free += 1
            self._choose()

    def _choose(self) -> None:
        """Give the free places to the waiting requests of the least served addresses, and wake
        those requests."""
        now = time.monotonic()
        while self.free and self.waiting:
            number = min(self.waiting, key=lambda n: self._rank(n, now))
            address, turn = self.waiting.pop(number)
            self.clients[address].running += 1
            self.free -= 1
            turn.notify()

    def _rank(self, number: int, now: float) -> tuple[int, float, int]:
        client = self.clients[self.waiting[number][0]]
        return client.running, client.recent(now), number

    def _client(self, address: str) -> _Client:
        if address not in self.clients and len(self.clients) >= MAX_TRACKED:
            self.clients = {name: kept for name, kept in self.clients.items() if kept.inside}
        return self.clients.setdefault(address, _Client())
