"""Load on the production server: simulated players against gunicorn, on each session store.

    python bench/server_load.py [--players 50] [--seconds 8] [--max-moves 400]

For each store (filesystem, then Redis on a redis-server of its own) it starts gunicorn with
gunicorn.conf.py and 2 workers on a free loopback port, and runs three phases, each bounded by
--seconds and, per player, by --max-moves:

- paced: every player plays real, legal moves at a brisk human pace (a move, then PACE seconds
  to think), every tenth move sent twice, as a page retrying a lost answer would;
- flat out: the same with no pause, for the move route's top throughput;
- baseline: flat out on a route that only reads and writes the session (registered because this
  script builds the app with BENCH_BASELINE on), for the yardstick.

It prints moves/s, latency percentiles, errors (any answer but 200), and lost or duplicated
moves: each player counts the moves the server accepted and compares with the move counter
(``#moves``) of the last fragment of each game. Move and page limits are raised for the run (the
players all share one address), so the limiter is on the path but never refuses.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from redis_server import RedisServer, free_port  # noqa: E402

from engine import DIRECTIONS, slide  # noqa: E402

PACE = 0.2
DUPLICATE_EVERY = 10
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
TILE = re.compile(r'class="tile" data-id="\d+" data-value="(\d+)" data-row="(\d)" data-col="(\d)"(?![^>]*data-leaving)')
MOVES = re.compile(r'id="moves" class="score-value">(\d+)<')
STATE = re.compile(r'id="board" class="board" role="img" data-state="(\w+)"')


def bench_app():
    """The production app plus the baseline route: what gunicorn serves during the benchmark."""
    from webapp import create_app
    from webapp.production import production_settings

    app = create_app({**production_settings(os.environ), "BENCH_BASELINE": True})
    _pre(app)  # TEMPORARY
    return app


def _pre(app):  # TEMPORARY until integrated in the factory
    from webapp.baseline import init_baseline
    from webapp.locked_session import install_locked_sessions
    from webapp.security import init_security
    from webapp.session_backends import build_session_interface
    from webapp.unavailable import init_unavailable

    install_locked_sessions(app, build_session_interface(app))
    init_security(app)
    init_unavailable(app)
    init_baseline(app)


@dataclass
class Tally:
    """What the players of one phase saw (latencies of the timed route only)."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    lost: int = 0
    duplicated: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, other: Tally) -> None:
        with self.lock:
            self.latencies += other.latencies
            self.errors += other.errors
            self.lost += other.lost
            self.duplicated += other.duplicated


class Player:
    """One browser session on the server, on one keep-alive connection, as a browser would."""

    def __init__(self, port: int) -> None:
        self.tally, self.cookie, self.token = Tally(), "", ""
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        page = self.request("GET", "/")
        self.token = CSRF_META.search(page).group(1)
        self.seq = int(re.search(r'data-seq="(\d+)"', page).group(1))
        self.start_game(page)

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> str:
        """Send one request and return the body; '' (and one more error) for anything but 200."""
        headers = {"Cookie": self.cookie, "X-CSRFToken": self.token}
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=urlencode(form or {}), headers=headers)
            response = self.connection.getresponse()
            text, status = response.read().decode(), response.status
            cookie = response.getheader("Set-Cookie")
        except (OSError, http.client.HTTPException):
            self.connection.close()  # the next request opens a new connection
            text, status, cookie = "", 0, None
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        if status != 200:
            self.tally.errors += 1
            return ""
        return text

    def timed(self, method: str, path: str, form: dict[str, str]) -> str:
        started = time.perf_counter()
        text = self.request(method, path, form)
        self.tally.latencies.append(time.perf_counter() - started)
        return text

    def read_game(self, html: str) -> None:
        """Take the board, the move counter and the state from a page or fragment."""
        rows = [[0] * 4 for _ in range(4)]
        for value, row, col in TILE.findall(html):
            rows[int(row)][int(col)] = int(value)
        self.rows = tuple(map(tuple, rows))
        self.server_moves = int(MOVES.search(html).group(1))
        self.state = STATE.search(html).group(1)

    def start_game(self, html: str) -> None:
        self.read_game(html)
        self.accepted = self.server_moves

    def settle_game(self) -> None:
        """Compare the server's move counter with the moves it accepted from us."""
        difference = self.server_moves - self.accepted
        self.tally.duplicated += max(difference, 0)
        self.tally.lost += max(-difference, 0)

    def send_move(self, form: dict[str, str]) -> bool:
        """Post a move, retrying (same number) after a failed answer, as the page does."""
        for _ in range(3):
            if fragment := self.timed("POST", "/move", form):
                self.read_game(fragment)
                return True
        return False

    def play(self, rng: random.Random) -> None:
        """One legal move, every tenth sent twice; a new game when no move is left."""
        shuffled = rng.sample(DIRECTIONS, len(DIRECTIONS))
        legal = next((d for d in shuffled if slide(self.rows, d)[0] != self.rows), None)
        if self.state != "playing" or legal is None:
            self.settle_game()
            self.start_game(self.request("POST", "/new", {}) or self.request("GET", "/"))
            return
        self.seq += 1
        form = {"direction": legal, "seq": str(self.seq)}
        if not self.send_move(form):
            self.start_game(self.request("GET", "/"))  # unknown outcome: count afresh
            return
        self.accepted += 1
        if self.seq % DUPLICATE_EVERY == 0:
            self.send_move(form)  # a retried request: must change nothing

    def touch_session(self, _rng: random.Random) -> None:
        """One request to the baseline route."""
        self.timed("POST", "/bench/session", {})


@contextmanager
def production_server(backend: str) -> Iterator[int]:
    """gunicorn with gunicorn.conf.py (2 workers) on a free port, on the given store."""
    port = free_port()
    with RedisServer() if backend == "redis" else nullcontext() as redis, \
            tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "BIND": f"127.0.0.1:{port}",
            "WEB_CONCURRENCY": "2",
            "SECRET_KEY": secrets.token_hex(32),
            "SESSION_COOKIE_SECURE": "0",
            "SESSION_BACKEND": backend,
            "SESSION_FILE_DIR": f"{scratch}/sessions",
            "MOVE_RATE_LIMIT": "1000/second",
            "PAGE_RATE_LIMIT": "100000/minute",
        }
        if redis is not None:
            env["REDIS_URL"] = redis.url
        command = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py",
                   "--pythonpath", "bench", "server_load:bench_app()"]
        log = Path(scratch) / "gunicorn.log"
        with log.open("w") as errors:
            server = subprocess.Popen(command, cwd=ROOT, env=env, stderr=errors)
        try:
            wait_until_serving(port, server, log)
            yield port
        finally:
            server.terminate()
            server.wait(timeout=15)


def wait_until_serving(port: int, server: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and server.poll() is None:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/static/favicon.svg")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not start:\n{log.read_text()}")


def run_phase(port: int, players: int, seconds: float, max_steps: int, pace: float,
              step: Callable[[Player, random.Random], None]) -> tuple[Tally, float]:
    """Every player takes up to max_steps steps within seconds; returns the tally and the time."""
    tally = Tally()
    start = threading.Barrier(players + 1)

    def run(number: int) -> None:
        player, rng = Player(port), random.Random(number)
        start.wait()
        deadline = time.monotonic() + seconds
        for _ in range(max_steps):
            if time.monotonic() >= deadline:
                break
            step(player, rng)
            time.sleep(pace)
        player.settle_game()
        tally.add(player.tally)

    threads = [threading.Thread(target=run, args=(number,)) for number in range(players)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    return tally, time.perf_counter() - began


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def report(backend: str, phase: str, tally: Tally, elapsed: float) -> float:
    """Print one line of figures; return the throughput."""
    rate = len(tally.latencies) / elapsed
    p50, p95, p99 = (percentile(tally.latencies, share) * 1000 for share in (0.5, 0.95, 0.99))
    print(f"{backend:<10} {phase:<9} {len(tally.latencies):>8} {rate:>9.0f} {p50:>7.1f} "
          f"{p95:>7.1f} {p99:>7.1f} {tally.errors:>6} {tally.lost:>5} {tally.duplicated:>5}")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--max-moves", type=int, default=400)
    parser.add_argument("--backends", nargs="+", default=["filesystem", "redis"])
    args = parser.parse_args()
    print(f"{args.players} players, up to {args.seconds:g} s and {args.max_moves} requests each "
          f"per phase; paced phase: one move every {PACE * 1000:.0f} ms per player")
    print(f"{'backend':<10} {'phase':<9} {'requests':>8} {'req/s':>9} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'p99 ms':>7} {'errors':>6} {'lost':>5} {'dup':>5}")
    for backend in args.backends:
        with production_server(backend) as port:
            phases = {"paced": (Player.play, PACE), "flat out": (Player.play, 0.0),
                      "baseline": (Player.touch_session, 0.0)}
            rates = {}
            for phase, (step, pace) in phases.items():
                tally, elapsed = run_phase(port, args.players, args.seconds, args.max_moves, pace, step)
                rates[phase] = report(backend, phase, tally, elapsed)
            print(f"{backend:<10} move route at {rates['flat out'] / rates['baseline']:.0%} "
                  "of the baseline's throughput")


if __name__ == "__main__":
    main()
