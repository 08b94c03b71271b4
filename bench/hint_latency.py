"""Print auto-play's latency and pace as a player gets them over HTTP: one request a move
(POST /solver-move, the server plays the solver's choice) side by side with a hint then its move
(POST /hint, POST /move), as auto-play asked before.

    python -m bench.hint_latency [--moves 1000] [--slice 50]

gunicorn serves the production app (one worker, warm-up on, SQLite store; limits lifted). One
player plays both ways in alternating slices of `--slice` moves, each on its own game (a finished
game is replaced by a new one). Each round trip is timed at the client, so the figures include
HTTP, the session store and rendering, not only the search. The page's auto-play waits
1000/speed ms between moves; the pace at its top speed (read from the page's slider) is worked
out from the measured round trips and that wait.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time

from harness.http_client import HttpClient
from harness.live_server import production_server
from harness.player import Player

HINTED = re.compile(r'id="hint-arrow" class="hint-arrow" data-direction="(\w+)"')
TOP_SPEED = re.compile(r'id="autoplay-speed"[^>]* max="(\d+)"')


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def pairs(player: Player, moves: int) -> tuple[list[float], list[float]]:
    """Hint, move, hint... for `moves` moves: (hint seconds, move seconds)."""
    hints, plays = [], []
    while len(plays) < moves:
        started = time.perf_counter()
        hint = player.served("/hint")
        hinted = time.perf_counter()
        direction = HINTED.search(hint)
        if direction is None:  # the game is over: auto-play stops, the player starts another
            player.served("/new")
            continue
        player.served("/move", direction=direction.group(1), seq=player.next_seq())
        hints.append(hinted - started)
        plays.append(time.perf_counter() - hinted)
    return hints, plays


def solver_moves(player: Player, moves: int) -> list[float]:
    """The solver's move, again and again, for `moves` moves: the seconds of each."""
    seconds: list[float] = []
    while len(seconds) < moves:
        started = time.perf_counter()
        player.served("/solver-move", seq=player.next_seq())
        seconds.append(time.perf_counter() - started)
        if player.status == "over":
            player.served("/new")
        elif player.status == "won":
            player.served("/keep-playing")
    return seconds


def report(label: str, seconds: list[float]) -> None:
    milliseconds = [value * 1000 for value in seconds]
    print(f"{label:<28} p50 {statistics.median(milliseconds):6.1f} ms   "
          f"p95 {percentile(milliseconds, 0.95):6.1f} ms   max {max(milliseconds):7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=1000, help="moves each way")
    parser.add_argument("--slice", type=int, default=50)
    args = parser.parse_args()
    hints: list[float] = []
    plays: list[float] = []
    singles: list[float] = []
    with production_server(SOLVER_WARM_UP="1") as server:
        paired, single = Player(HttpClient(server.port)), Player(HttpClient(server.port))
        top_speed = int(TOP_SPEED.search(paired.page.text).group(1))
        while len(singles) < args.moves:
            hint_seconds, play_seconds = pairs(paired, args.slice)
            hints += hint_seconds
            plays += play_seconds
            singles += solver_moves(single, args.slice)
    rounds = [hint + play for hint, play in zip(hints, plays)]
    print(f"{len(singles)} auto-play moves each way over HTTP, setting fast")
    report("POST /hint", hints)
    report("POST /move", plays)
    report("hint + move round trip", rounds)
    report("POST /solver-move", singles)
    print(f"time a move, one request against a hint and a move: "
          f"{statistics.median(singles) / statistics.median(rounds):.2f} (medians), "
          f"{sum(singles) / sum(rounds):.2f} (totals)")
    pause = 1 / top_speed
    for label, seconds in (("one request a move", singles), ("hint then move", rounds)):
        print(f"{label}: {len(seconds) / sum(seconds):.0f} moves/s without pauses, "
              f"{len(seconds) / (sum(seconds) + pause * len(seconds)):.1f} moves/s at the page's "
              f"top speed ({top_speed}/s)")


if __name__ == "__main__":
    main()
