"""cachelib's FileSystemCache, made safe to share between worker processes and cheap when full."""

from __future__ import annotations

from cachelib.file import FileSystemCache

from webapp.store.locks import FileLocks


class CountedFileCache(FileSystemCache):
    """cachelib's file cache, with an exact count of entries and pruning in batches.

    cachelib keeps the count in a file it rewrites without locking, so workers adding games at
    the same moment lose increments and the store outgrows its threshold; under a lock the
    threshold is a true bound. Past the threshold cachelib scans the whole directory and then
    deletes just enough to get back under it, so once full every new game would pay for a full
    scan; deleting down to PRUNE_TO of the threshold makes that one scan per many new games.
    """

    PRUNE_TO = 0.9

    def __init__(self, cache_dir: str, count_lock: FileLocks, threshold: int) -> None:
        self._count_lock = count_lock  # before cachelib's __init__, which counts the entries
        super().__init__(cache_dir, threshold=threshold, mode=0o600)

    def _update_count(self, delta: int | None = None, value: int | None = None) -> None:
        held = self._count_lock.acquire("entry-count")
        try:
            super()._update_count(delta=delta, value=value)
        finally:
            held.release()

    def _remove_older(self) -> bool:
        threshold = self._threshold
        self._threshold = int(threshold * self.PRUNE_TO)  # cachelib deletes until under it
        try:
            return super()._remove_older()
        finally:
            self._threshold = threshold
