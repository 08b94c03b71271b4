"""Print how long the first hint after a server start takes, with the solver warm-up on and off.

    python -m bench.first_hint

Each case starts gunicorn afresh (production settings, one worker, SQLite store), waits until it
listens, loads the page and asks for two hints in a row: the second one is the same run's
yardstick for a hint with everything loaded. Two situations: a restart (numba's compiled code
and the solver's tables already on disk) and a first start after installing (both caches empty,
in scratch directories), where the search has to be compiled.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from harness.http_client import HttpClient
from harness.live_server import production_server
from harness.player import Player


def first_hints(**settings: str) -> tuple[float, float, float]:
    """(seconds until gunicorn listened, first hint's seconds, second hint's seconds)."""
    with production_server(**settings) as server:
        player = Player(HttpClient(server.port))
        timings = []
        for _ in range(2):
            started = time.perf_counter()
            player.served("/hint")
            timings.append(time.perf_counter() - started)
    return server.startup, timings[0], timings[1]


def main() -> None:
    print(f"{'situation':<30} {'warm-up':<8} {'start-up':>9} {'1st hint':>10} {'2nd hint':>10}")
    for situation in ("restart", "first start"):
        for warm_up in ("1", "0"):
            with tempfile.TemporaryDirectory() as empty:
                caches = {} if situation == "restart" else {
                    "NUMBA_CACHE_DIR": str(Path(empty) / "numba"),
                    "SOLVER_CACHE_DIR": str(Path(empty) / "tables")}
                startup, first, second = first_hints(SOLVER_WARM_UP=warm_up, **caches)
            label = "restart (caches on disk)" if situation == "restart" else "first start (no caches)"
            print(f"{label:<30} {'on' if warm_up == '1' else 'off':<8} {startup:>8.1f}s "
                  f"{first * 1000:>8.0f}ms {second * 1000:>8.0f}ms")


if __name__ == "__main__":
    main()
