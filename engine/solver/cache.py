"""Transposition caches, one per search running at a time, lent out by a bounded pool.

A cache holds 2**bits positions in two arrays (keys, and value with depth) of 16 bytes each,
so 16 MiB at the default 19 bits. Concurrent searches each need their own; the pool makes at
most `size` of them and a search beyond that waits for one to come back, which bounds the
memory to size * 16 MiB whatever the number of threads.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from engine.solver.search import SEARCH_STATE

DEFAULT_BITS = 19


class TranspositionCache:
    """The arrays one search writes: cached positions and the search's counters."""

    def __init__(self, bits: int = DEFAULT_BITS) -> None:
        size = 1 << bits
        self.keys = np.full((size, 2), -1, dtype=np.int64)
        self.values = np.zeros((size, 2), dtype=np.float64)  # value, depth
        self.state = np.zeros(1, dtype=SEARCH_STATE).view(np.recarray)

    @property
    def nodes(self) -> int:
        """Positions expanded by the current pass."""
        return int(self.state[0].nodes)

    def start_search(self) -> None:
        """A new generation: entries written by earlier searches no longer match."""
        self.state[0].generation += 1

    def start_pass(self, node_limit: int) -> None:
        """Count positions from zero, allowing at most `node_limit`."""
        self.state[0].nodes = 0
        self.state[0].node_limit = node_limit


class CachePool:
    """At most `size` caches, made on first need and reused by one search at a time."""

    def __init__(self, size: int, bits: int = DEFAULT_BITS) -> None:
        if size < 1:
            raise ValueError(f"a cache pool needs at least one cache, not {size}")
        self.size, self.bits = size, bits
        self._free: list[TranspositionCache] = []
        self._made = 0
        self._available = threading.Semaphore(size)
        self._lock = threading.Lock()

    @property
    def made(self) -> int:
        """How many caches exist (never more than `size`)."""
        return self._made

    @contextmanager
    def borrowed(self) -> Iterator[TranspositionCache]:
        """A cache nobody else uses until it is given back; waits while all are in use."""
        with self._available:
            with self._lock:
                if not self._free:
                    self._free.append(TranspositionCache(self.bits))
                    self._made += 1
                cache = self._free.pop()
            try:
                yield cache
            finally:
                with self._lock:
                    self._free.append(cache)
