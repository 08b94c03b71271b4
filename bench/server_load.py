"""Load on the production server: simulated players against gunicorn, on each store.

    python -m bench.server_load [--players 50] [--seconds 8] [--max-moves 400] [--repeat 1]
                                [--backends sqlite redis redis-wait cluster]

For each store (SQLite; Redis on a redis-server of its own; the same with a replica every write
waits for, REDIS_WAIT_REPLICAS=1; a Redis Cluster of three primaries) it starts gunicorn with
gunicorn.conf.py and 2 workers on a free loopback port, and runs three phases, each bounded by
--seconds and, per player, by --max-moves:

- paced: every player plays real, legal moves at a brisk human pace (a move, then PACE seconds
  to think, give or take half: up to 5 keys a second), every tenth move sent twice, as a page
  retrying a lost answer would;
- flat out: the same with no pause, for the move route's top throughput;
- baseline: flat out on a route that reads the current game's record and writes it back
  (harness/yardstick.py, which the server this script starts adds to the app), for the yardstick.
  The two alternate in ROUNDS slices, so that both meet the same background load.

Players post as the page does: each request names the game (the page's ``data-game``, then each
answer's ``X-Game``) and each move carries the next number after the answers' ``X-Seq``. A
player keeps, for each of its games, the list of moves the server reported applied (``X-Seq``
reaching the move's number). After each phase the bench reads every game's stored record (the
SQLite file the server uses, or its Redis hash) and compares the server's own move list with
the player's, position by position: a move the server reported but did not keep is lost, one
it kept but never reported is doubled, and the two are counted apart, so they cannot cancel. A
retry answered "Nothing moves" (the server applied it a second time, to no effect on the
board) counts as doubled too. Errors are answers other than 200, and answers that did not apply
the next move when they should have. Move and page limits are raised for the run (the players
all share one address), so the limiter is on the path but never refuses.

Beside the latencies it prints the server's CPU time per request (gunicorn's processes and
the redis-servers, from /proc; then the redis-servers' alone), and the baseline's against the
move route's: on a machine shared
with other jobs, wall-clock throughput follows whatever else runs, CPU per request much less.
With --repeat it runs every phase that many times on the same server and ends each store with
the median of the runs' shares (single runs on this machine range over 15 points or more).
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import os
import random
import re
import sqlite3
import statistics
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from werkzeug.datastructures import Headers

from engine import DIRECTIONS, slide
from harness.live_server import YARDSTICK_APP
from harness.live_server import production_server as live_server
from harness.player import Page
from harness.redis_server import Cluster, RedisServer, wait_for_replicas

PACE = 0.2
ROUNDS = 4
DUPLICATE_EVERY = 10
SEND_ATTEMPTS = 3
BACKENDS = ("sqlite", "redis", "redis-wait", "cluster")
TILE = re.compile(
    r'class="tile" data-id="\d+" data-value="(\d+)" data-row="(\d)" data-col="(\d)"'
    r"(?![^>]*data-leaving)"
)
BLOCKED = re.compile(r'id="announcement"[^>]*>Nothing moves')


@dataclass
class Tally:
    """What the players of one phase saw (latencies of the timed route only)."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    checked: int = 0  # moves the server reported applied, compared with its stored games
    lost: int = 0
    doubled: int = 0
    seconds: float = 0.0
    server_cpu: float = 0.0  # seconds of CPU the server's processes used (Redis included)
    redis_cpu: float = 0.0  # of which the redis-servers'

    def add(self, other: Tally) -> None:
        """Count other's figures in with these."""
        self.latencies += other.latencies
        self.errors += other.errors
        self.checked += other.checked
        self.lost += other.lost
        self.doubled += other.doubled
        self.seconds += other.seconds
        self.server_cpu += other.server_cpu
        self.redis_cpu += other.redis_cpu


@dataclass
class Answer:
    status: int
    headers: Headers
    text: str


class Connection:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams (reconnects when the server closes)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Answer:
        """Send one request; its answer. A kept-alive connection the server has closed meanwhile
        is reopened once, as browsers do."""
        reused = self.streams is not None
        try:
            return await self._exchange(method, path, headers, body)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.close()
            if not reused:
                raise
            return await self._exchange(method, path, headers, body)

    async def _exchange(self, method: str, path: str, headers: dict[str, str], body: bytes
                        ) -> Answer:
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        response_head = (await reader.readuntil(b"\r\n\r\n")).decode()
        status_line, *header_lines = response_head.split("\r\n")
        answer = Headers([line.split(": ", 1) for line in header_lines if line])
        text = (await reader.readexactly(int(answer.get("Content-Length", 0)))).decode()
        if answer.get("Connection", "").lower() == "close":
            self.close()
        return Answer(int(status_line.split()[1]), answer, text)

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


class Player(Page):
    """One browser session on the server, on one keep-alive connection, posting as the page does
    (harness.player.Page: its token, game, move number and status)."""

    def __init__(self, port: int) -> None:
        super().__init__(token="", game="")
        self.tally, self.cookie, self.rows = Tally(), "", ((0,) * 4,) * 4
        self.reported: dict[str, list[str]] = {}  # game id -> moves the server said it applied
        self.connection = Connection(port)

    async def open(self) -> Player:
        """Load the page, as a player arriving does."""
        await self.reload()
        return self

    async def reload(self) -> None:
        """Load the page again: its game, its last move number, its board."""
        answer = await self.request("GET", "/")
        if answer.status == 200:
            self.show(answer.text)
            self.reported.setdefault(self.game, [])
            self.read_board(answer.text)

    async def request(self, method: str, path: str, form: dict[str, str] | None = None) -> Answer:
        """Send one request; anything but a 200 counts as an error (no answer is status 0)."""
        headers = {"Cookie": self.cookie, **self.headers()}
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            answer = await self.connection.request(
                method, path, headers, urlencode(form or {}).encode())
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.connection.close()
            answer = Answer(0, Headers(), "")
        if "Set-Cookie" in answer.headers:
            self.cookie = answer.headers["Set-Cookie"].split(";", 1)[0]
        if answer.status != 200:
            self.tally.errors += 1
        return answer

    async def timed(self, method: str, path: str, form: dict[str, str]) -> Answer:
        started = time.perf_counter()
        answer = await self.request(method, path, form)
        self.tally.latencies.append(time.perf_counter() - started)
        return answer

    def read_board(self, html: str) -> None:
        """Take the board from a page or fragment."""
        rows = [[0] * 4 for _ in range(4)]
        for value, row, col in TILE.findall(html):
            rows[int(row)][int(col)] = int(value)
        self.rows = tuple(map(tuple, rows))

    def take(self, answer: Answer) -> None:
        """Follow a game answer as the page does (its game, last move number and where the game
        stands), and take its board."""
        self.follow(answer.headers)
        self.reported.setdefault(self.game, [])
        self.read_board(answer.text)

    async def send_move(self, form: dict[str, str]) -> Answer | None:
        """Post a move, sending it again (same number) after a failed answer, as the page does;
        the 200 answer, or None when every attempt failed."""
        for _ in range(SEND_ATTEMPTS):
            answer = await self.timed("POST", "/move", form)
            if answer.status == 200:
                self.take(answer)
                return answer
        return None

    async def play(self, rng: random.Random) -> None:
        """One legal move, every tenth sent twice; a new game when no move is left."""
        shuffled = rng.sample(DIRECTIONS, len(DIRECTIONS))
        legal = next((d for d in shuffled if slide(self.rows, d)[0] != self.rows), None)
        if self.status != "playing" or legal is None:
            answer = await self.request("POST", "/new", self.form({}))
            if answer.status == 200:
                self.take(answer)
            return
        game, seq = self.game, self.seq + 1
        form = self.form({"direction": legal, "seq": str(seq)})
        answer = await self.send_move(form)
        if answer is None:
            await self.reload()  # no answer: the page's state says whether it was applied
        if (self.game, self.seq) == (game, seq):
            self.reported[game].append(legal)
            if answer is not None and BLOCKED.search(answer.text):
                self.tally.errors += 1  # the server's board was not the one it showed
        elif answer is not None:
            self.tally.errors += 1  # a 200 that did not apply the next move
        if answer is not None and seq % DUPLICATE_EVERY == 0:
            retry = await self.send_move(form)  # a retried request: must change nothing
            if retry is not None and BLOCKED.search(retry.text):
                self.tally.doubled += 1  # applied again, to a board it could not move

    async def baseline_request(self, _rng: random.Random) -> None:
        """One request to the baseline route (read the current game, write it back)."""
        await self.timed("POST", "/bench/session", {})


def lost_and_doubled(reported: list[str], stored: Iterable[str]) -> tuple[int, int]:
    """Compare the moves a player was told were applied with the moves the server keeps:
    (reported but not kept, kept but not reported), each counted on its own."""
    lost = doubled = 0
    matcher = difflib.SequenceMatcher(None, reported, list(stored), autojunk=False)
    for tag, start, end, stored_start, stored_end in matcher.get_opcodes():
        if tag != "equal":
            lost += end - start
            doubled += stored_end - stored_start
    return lost, doubled


@dataclass
class Server:
    """A running server and direct access to the store behind it."""

    port: int
    backend: str
    sqlite_path: Path
    redis: list[RedisServer]  # every redis-server behind it, replicas and cluster nodes too
    pid: int = 0  # gunicorn's master process

    def cpu_seconds(self) -> float:
        """CPU time used so far by gunicorn's master and workers (also those already gone)
        and by the redis-servers."""
        children = [int(path.parent.name) for path in Path("/proc").glob("[0-9]*/stat")
                    if _stat_fields(int(path.parent.name))[1:2] == [str(self.pid)]]
        fields = _stat_fields(self.pid)
        ticks = sum(map(int, fields[11:15]))  # its own time and its reaped children's
        ticks += sum(sum(map(int, _stat_fields(pid)[11:13])) for pid in children)
        return ticks / os.sysconf("SC_CLK_TCK") + self.redis_cpu_seconds()

    def redis_cpu_seconds(self) -> float:
        """CPU time used so far by the redis-servers alone."""
        pids = [server.process.pid for server in self.redis if server.process]
        ticks = sum(sum(map(int, _stat_fields(pid)[11:13])) for pid in pids)
        return ticks / os.sysconf("SC_CLK_TCK")

    def stored_moves(self, game_ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """Each game's move list as the store keeps it (games it does not have are left out)."""
        from webapp.store.game_record import GameRecord

        fields = self._sqlite_fields if self.backend == "sqlite" else self._redis_fields
        return {game_id: GameRecord.from_fields(stored).game.history.directions()
                for game_id, stored in fields(list(game_ids))}

    def _sqlite_fields(self, game_ids: list[str]) -> Iterator[tuple[str, Mapping]]:
        with sqlite3.connect(f"file:{self.sqlite_path}?mode=ro", uri=True) as connection:
            connection.row_factory = sqlite3.Row
            for game_id in game_ids:
                row = connection.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is not None:
                    yield game_id, dict(row)

    def _redis_fields(self, game_ids: list[str]) -> Iterator[tuple[str, Mapping]]:
        from redis import Redis
        from redis.cluster import RedisCluster

        from webapp.store.redis_games import KEY_PREFIX

        first = self.redis[0]
        client = (RedisCluster(host="127.0.0.1", port=first.port) if self.backend == "cluster"
                  else Redis.from_url(first.url))
        pipeline = client.pipeline(transaction=False)
        for game_id in game_ids:
            pipeline.hgetall(KEY_PREFIX + game_id)
        for game_id, stored in zip(game_ids, pipeline.execute()):
            if stored:
                yield game_id, {name.decode(): value for name, value in stored.items()}
        client.close()


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command's name (state first, then the parent's
    pid, ... user and system time at 11 and 12, those of reaped children at 13 and 14); [] for a
    process that is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


@contextmanager
def production_server(backend: str, sqlite_path: Path | None = None,
                      settings: Mapping[str, str] | None = None) -> Iterator[Server]:
    """gunicorn with gunicorn.conf.py (2 workers) and the yardstick route on a free port, on the
    given store (SQLite in `sqlite_path`, by default a fresh file; Redis on redis-servers of
    its own: see the module's docstring), with any other `settings` (environment variables) on
    top."""
    with ExitStack() as servers:
        store, redis = {"SESSION_BACKEND": "sqlite" if backend == "sqlite" else "redis"}, []
        if backend in ("redis", "redis-wait"):
            redis.append(servers.enter_context(RedisServer()))
            store["REDIS_URL"] = redis[0].url
        if backend == "redis-wait":
            redis.append(servers.enter_context(
                RedisServer(replicaof=("127.0.0.1", str(redis[0].port)))))
            wait_for_replicas(redis[0], 1)
            store["REDIS_WAIT_REPLICAS"] = "1"
        if backend == "cluster":
            cluster = servers.enter_context(Cluster())
            redis, store["REDIS_CLUSTER_NODES"] = cluster.servers, cluster.addresses
        if sqlite_path is not None:
            store["SQLITE_PATH"] = str(sqlite_path)
        with live_server(app=YARDSTICK_APP, WEB_CONCURRENCY="2", **store,
                         **(settings or {})) as live:
            yield Server(live.port, backend, live.sqlite_path, redis, live.process.pid)


async def run_phase(server: Server, players: int, seconds: float, max_steps: int, pace: float,
                    step: Callable[[Player, random.Random], Awaitable[None]]) -> Tally:
    """Every player takes up to max_steps steps within seconds; what they saw, all together,
    with their games checked against the store."""
    everyone = await asyncio.gather(*(Player(server.port).open() for _ in range(players)))

    async def run(player: Player, rng: random.Random, deadline: float) -> None:
        await asyncio.sleep(rng.uniform(0, pace))  # players do not start in step...
        for _ in range(max_steps):
            if time.monotonic() >= deadline:
                break
            await step(player, rng)
            await asyncio.sleep(rng.uniform(0.5, 1.5) * pace)  # ...nor think in step
        player.connection.close()

    began, cpu, redis_cpu = time.perf_counter(), server.cpu_seconds(), server.redis_cpu_seconds()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(run(player, random.Random(number), deadline)
                           for number, player in enumerate(everyone)))
    tally = Tally(seconds=time.perf_counter() - began, server_cpu=server.cpu_seconds() - cpu,
                  redis_cpu=server.redis_cpu_seconds() - redis_cpu)
    for player in everyone:
        tally.add(player.tally)
    reported = {game: moves for player in everyone for game, moves in player.reported.items()}
    stored = server.stored_moves(reported)
    for game, moves in reported.items():
        lost, doubled = lost_and_doubled(moves, stored.get(game, ()))
        tally.checked, tally.lost, tally.doubled = (
            tally.checked + len(moves), tally.lost + lost, tally.doubled + doubled)
    return tally


def phase(server: Server, step: Callable[[Player, random.Random], Awaitable[None]], pace: float,
          seconds: float, players: int, max_steps: int) -> Tally:
    """run_phase, from synchronous code."""
    return asyncio.run(run_phase(server, players, seconds, max_steps, pace, step))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


HEADER = (f"{'store':<14} {'phase':<9} {'requests':>8} {'req/s':>6} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'p99 ms':>7} {'errors':>6} {'checked':>7} {'lost':>4} {'doubled':>7} {'cpu ms':>6} "
          f"{'redis':>6}")


def report(store: str, name: str, tally: Tally) -> tuple[float, float]:
    """Print one line of figures (under HEADER); return the throughput and the server's CPU
    milliseconds per request."""
    requests = len(tally.latencies)
    rate, cpu = requests / tally.seconds, tally.server_cpu * 1000 / max(requests, 1)
    redis_cpu = tally.redis_cpu * 1000 / max(requests, 1)
    p50, p95, p99 = (percentile(tally.latencies, share) * 1000 for share in (0.5, 0.95, 0.99))
    print(f"{store:<14} {name:<9} {requests:>8} {rate:>6.0f} {p50:>7.1f} "
          f"{p95:>7.1f} {p99:>7.1f} {tally.errors:>6} {tally.checked:>7} {tally.lost:>4} "
          f"{tally.doubled:>7} {cpu:>6.2f} {redis_cpu:>6.2f}", flush=True)
    return rate, cpu


def load_average() -> str:
    """The machine's 1-, 5- and 15-minute load averages, as text."""
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--max-moves", type=int, default=400)
    parser.add_argument("--backends", nargs="+", choices=BACKENDS, default=list(BACKENDS))
    parser.add_argument("--repeat", type=int, default=1, help="runs of every phase, one after another")
    args = parser.parse_args()
    print(f"{args.players} players, up to {args.seconds:g} s and {args.max_moves} requests each "
          f"per phase; paced: each player waits {PACE * 1000:.0f} ms (±50%) after every answer; "
          f"req/s and latencies count timed requests (moves, or baseline requests)")
    print(HEADER)
    for backend in args.backends:
        with production_server(backend) as server:
            def run(step, pace: float, seconds: float) -> Tally:
                return phase(server, step, pace, seconds, args.players, args.max_moves)

            shares: list[float] = []
            for _ in range(args.repeat):
                print(f"# load average {load_average()}", flush=True)
                paced = run(Player.play, PACE, args.seconds)
                flat_out, baseline = Tally(), Tally()
                for _ in range(ROUNDS):  # interleaved, so both meet the same background load
                    flat_out.add(run(Player.play, 0.0, args.seconds / ROUNDS))
                    baseline.add(run(Player.baseline_request, 0.0, args.seconds / ROUNDS))
                report(backend, "paced", paced)
                move_rate, move_cpu = report(backend, "flat out", flat_out)
                base_rate, base_cpu = report(backend, "baseline", baseline)
                print(f"{backend:<14} move route at {move_rate / base_rate:.0%} of the baseline's "
                      f"throughput; {base_cpu / move_cpu:.0%} by server CPU per request", flush=True)
                shares.append(move_rate / base_rate)
            if len(shares) > 1:  # single runs differ by more than most changes: their median
                print(f"{backend:<14} over {len(shares)} runs the move route's median share of the "
                      f"baseline's throughput is {statistics.median(shares):.0%} "
                      f"({min(shares):.0%}-{max(shares):.0%})", flush=True)


if __name__ == "__main__":
    main()
