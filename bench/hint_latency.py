"""Print the hint route's latency and auto-play's pace, as a player gets them over HTTP.

    python bench/hint_latency.py [--moves 1000]

gunicorn serves the production app (one worker, warm-up on, SQLite store; limits lifted). One
player plays as auto-play does: ask for a hint, play the move it names, ask again; a finished
game is replaced by a new one. Each round trip is timed at the client, so the figures include
HTTP, the session store and rendering, not only the search. The page's auto-play waits
1000/speed ms between a hint and its move; the pace at its top speed (read from the page's
slider) is worked out from the measured round trips and that wait.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from live_server import HttpPlayer, production_server  # noqa: E402

HINTED = re.compile(r'id="hint-arrow" class="hint-arrow" data-direction="(\w+)"')
TOP_SPEED = re.compile(r'id="autoplay-speed"[^>]* max="(\d+)"')


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def autoplay(player: HttpPlayer, moves: int) -> tuple[list[float], list[float], int]:
    """Hint, move, hint... until `moves` moves: (hint seconds, move seconds, games played)."""
    hints, plays, games = [], [], 1
    while len(plays) < moves:
        started = time.perf_counter()
        hint = player.post("/hint")
        hinted = time.perf_counter()
        direction = HINTED.search(hint)
        if direction is None:  # the game is over: auto-play stops, the player starts another
            player.post("/new")
            games += 1
            continue
        player.move(direction.group(1))
        hints.append(hinted - started)
        plays.append(time.perf_counter() - hinted)
    return hints, plays, games


def report(label: str, seconds: list[float]) -> None:
    milliseconds = [value * 1000 for value in seconds]
    print(f"{label:<28} p50 {statistics.median(milliseconds):6.1f} ms   "
          f"p95 {percentile(milliseconds, 0.95):6.1f} ms   max {max(milliseconds):7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=1000)
    args = parser.parse_args()
    with production_server(SOLVER_WARM_UP="1") as (port, _startup):
        player = HttpPlayer(port)
        top_speed = int(TOP_SPEED.search(player.page).group(1))
        hints, plays, games = autoplay(player, args.moves)
    rounds = [hint + play for hint, play in zip(hints, plays)]
    print(f"{len(rounds)} auto-play moves over HTTP in {games} game(s), setting fast")
    report("POST /hint", hints)
    report("POST /move", plays)
    report("hint + move round trip", rounds)
    pause = 1 / top_speed
    print(f"auto-play without pauses: {len(rounds) / sum(rounds):.0f} moves/s")
    print(f"auto-play at the page's top speed ({top_speed}/s: {pause * 1000:.0f} ms between a hint "
          f"and its move): {len(rounds) / (sum(rounds) + pause * len(rounds)):.1f} moves/s")


if __name__ == "__main__":
    main()
