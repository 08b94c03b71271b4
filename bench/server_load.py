"""Load on the production server: simulated players against gunicorn, on each session store.

    python bench/server_load.py [--players 50] [--seconds 8] [--max-moves 400]

For each store (filesystem, then Redis on a redis-server of its own) it starts gunicorn with
gunicorn.conf.py and 2 workers on a free loopback port, and runs three phases, each bounded by
--seconds and, per player, by --max-moves:

- paced: every player plays real, legal moves at a brisk human pace (a move, then PACE seconds
  to think, give or take half), every tenth move sent twice, as a page retrying a lost answer
  would;
- flat out: the same with no pause, for the move route's top throughput;
- baseline: flat out on a route that only reads and writes the session (registered because this
  script builds the app with BENCH_BASELINE on), for the yardstick. The two alternate in
  ROUNDS slices, so that both meet the same background load.

It prints moves/s, latency percentiles, errors (any answer but 200), and lost or duplicated
moves: each player counts the moves the server accepted and compares with the move counter
(``#moves``) of the last fragment of each game. Move and page limits are raised for the run (the
players all share one address), so the limiter is on the path but never refuses.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from redis_server import RedisServer, free_port  # noqa: E402

from engine import DIRECTIONS, slide  # noqa: E402

PACE = 0.2
ROUNDS = 4
DUPLICATE_EVERY = 10
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
TILE = re.compile(
    r'class="tile" data-id="\d+" data-value="(\d+)" data-row="(\d)" data-col="(\d)"'
    r"(?![^>]*data-leaving)"
)
MOVES = re.compile(r'id="moves" class="score-value">(\d+)<')
STATE = re.compile(r'id="board" class="board" role="img" data-state="(\w+)"')


def bench_app():
    """The production app plus the baseline route: what gunicorn serves during the benchmark."""
    from webapp import create_app
    from webapp.production import production_settings

    return create_app({**production_settings(os.environ), "BENCH_BASELINE": True})


@dataclass
class Tally:
    """What the players of one phase saw (latencies of the timed route only)."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    lost: int = 0
    duplicated: int = 0
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        """Count other's figures in with these."""
        self.latencies += other.latencies
        self.errors += other.errors
        self.lost += other.lost
        self.duplicated += other.duplicated
        self.seconds += other.seconds


class Connection:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams (reconnects when the server closes)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, headers: dict[str, str], body: bytes
                      ) -> tuple[int, dict[str, str], str]:
        """Send one request; (status, lower-cased headers, body text). A kept-alive connection
        the server has closed meanwhile is reopened once, as browsers do."""
        reused = self.streams is not None
        try:
            return await self._exchange(method, path, headers, body)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.close()
            if not reused:
                raise
            return await self._exchange(method, path, headers, body)

    async def _exchange(self, method: str, path: str, headers: dict[str, str], body: bytes
                        ) -> tuple[int, dict[str, str], str]:
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        response_head = (await reader.readuntil(b"\r\n\r\n")).decode()
        status_line, *header_lines = response_head.split("\r\n")
        answer = dict(line.split(": ", 1) for line in header_lines if line)
        answer = {name.lower(): value for name, value in answer.items()}
        text = (await reader.readexactly(int(answer.get("content-length", 0)))).decode()
        if answer.get("connection", "").lower() == "close":
            self.close()
        return int(status_line.split()[1]), answer, text

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


class Player:
    """One browser session on the server, on one keep-alive connection, as a browser would."""

    def __init__(self, port: int) -> None:
        self.tally, self.cookie, self.token, self.seq = Tally(), "", "", 0
        self.connection = Connection(port)

    async def open(self) -> Player:
        """Load the page, as a player arriving does."""
        page = await self.request("GET", "/")
        self.token = CSRF_META.search(page).group(1)
        self.seq = int(re.search(r'data-seq="(\d+)"', page).group(1))
        self.start_game(page)
        return self

    async def request(self, method: str, path: str, form: dict[str, str] | None = None) -> str:
        """Send one request and return the body; '' (and one more error) for anything but 200."""
        headers = {"Cookie": self.cookie, "X-CSRFToken": self.token}
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            status, answer, text = await self.connection.request(
                method, path, headers, urlencode(form or {}).encode())
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.connection.close()
            status, answer, text = 0, {}, ""
        if "set-cookie" in answer:
            self.cookie = answer["set-cookie"].split(";", 1)[0]
        if "x-seq" in answer:  # the last move number applied, as the page's script keeps it
            self.seq = max(self.seq, int(answer["x-seq"]))
        if status != 200:
            self.tally.errors += 1
            return ""
        return text

    async def timed(self, method: str, path: str, form: dict[str, str]) -> str:
        started = time.perf_counter()
        text = await self.request(method, path, form)
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

    async def send_move(self, form: dict[str, str]) -> bool:
        """Post a move, retrying (same number) after a failed answer, as the page does."""
        for _ in range(3):
            if fragment := await self.timed("POST", "/move", form):
                self.read_game(fragment)
                return True
        return False

    async def play(self, rng: random.Random) -> None:
        """One legal move, every tenth sent twice; a new game when no move is left."""
        shuffled = rng.sample(DIRECTIONS, len(DIRECTIONS))
        legal = next((d for d in shuffled if slide(self.rows, d)[0] != self.rows), None)
        if self.state != "playing" or legal is None:
            self.settle_game()
            self.start_game(await self.request("POST", "/new", {}) or await self.request("GET", "/"))
            return
        self.seq += 1
        form = {"direction": legal, "seq": str(self.seq)}
        if not await self.send_move(form):
            self.start_game(await self.request("GET", "/"))  # unknown outcome: count afresh
            return
        self.accepted += 1
        if self.seq % DUPLICATE_EVERY == 0:
            await self.send_move(form)  # a retried request: must change nothing

    async def touch_session(self, _rng: random.Random) -> None:
        """One request to the baseline route."""
        await self.timed("POST", "/bench/session", {})


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


async def run_phase(port: int, players: int, seconds: float, max_steps: int, pace: float,
                    step: Callable[[Player, random.Random], Awaitable[None]]) -> Tally:
    """Every player takes up to max_steps steps within seconds; what they saw, all together."""
    everyone = await asyncio.gather(*(Player(port).open() for _ in range(players)))

    async def run(player: Player, rng: random.Random, deadline: float) -> None:
        await asyncio.sleep(rng.uniform(0, pace))  # players do not start in step...
        for _ in range(max_steps):
            if time.monotonic() >= deadline:
                break
            await step(player, rng)
            await asyncio.sleep(rng.uniform(0.5, 1.5) * pace)  # ...nor think in step
        player.settle_game()
        player.connection.close()

    began = time.perf_counter()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(run(player, random.Random(number), deadline)
                           for number, player in enumerate(everyone)))
    tally = Tally(seconds=time.perf_counter() - began)
    for player in everyone:
        tally.add(player.tally)
    return tally


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def report(backend: str, phase: str, tally: Tally) -> float:
    """Print one line of figures; return the throughput."""
    rate = len(tally.latencies) / tally.seconds
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
          f"per phase; paced: each player waits {PACE * 1000:.0f} ms (±50%) after every answer; "
          f"req/s and latencies count timed requests (moves, or baseline requests)")
    print(f"{'backend':<10} {'phase':<9} {'requests':>8} {'req/s':>9} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'p99 ms':>7} {'errors':>6} {'lost':>5} {'dup':>5}")
    for backend in args.backends:
        with production_server(backend) as port:
            def phase(step, pace: float, seconds: float) -> Tally:
                return asyncio.run(run_phase(
                    port, args.players, seconds, args.max_moves, pace, step))

            paced = phase(Player.play, PACE, args.seconds)
            flat_out, baseline = Tally(), Tally()
            for _ in range(ROUNDS):  # interleaved, so both meet the same background load
                flat_out.add(phase(Player.play, 0.0, args.seconds / ROUNDS))
                baseline.add(phase(Player.touch_session, 0.0, args.seconds / ROUNDS))
            report(backend, "paced", paced)
            ratio = report(backend, "flat out", flat_out) / report(backend, "baseline", baseline)
            print(f"{backend:<10} move route at {ratio:.0%} of the baseline's throughput")


if __name__ == "__main__":
    main()
