"""Paced moves on an empty and on a full embedded store, eviction on, side by side; bytes a game.

    python -m bench.store_filled [--games 1000000] [--max-entries GAMES] [--rounds 8]

It builds an SQLite file holding --games played games, each with its player's session: one real
record (the first TYPICAL_MOVES moves of the stored long game, tests/data/long_game.json) under
fresh ids, with last-played times spread over the past SPREAD_DAYS days, inserted in bulk (sorted by
id, in one transaction, journal off) through the app's own schema and flushed to disk before any
server starts. It
prints the file's size per game, without and with the sessions, and the same for a file of
--long-games copies of the whole 20,000-move game.

Then two gunicorn servers (gunicorn.conf.py, 2 workers) run at once, one on a fresh file and one
on the filled file, both with SESSION_STORE_MAX_ENTRIES=--max-entries, and the paced phase of
bench/server_load.py (50 players, up to 5 keys a second, every tenth move retried, lost and
doubled moves checked against the stored games), with each player starting a new game every
NEW_GAME_EVERY moves, alternates between them for --rounds slices (in turn first), so both meet
the same background load. The cap defaults to --games: the filled store is full, so every new
game's session and every first move pushes out the least recently played (see
webapp/store/retention.py), and the bench prints how many of the stored games and sessions went. It prints each store's figures, and the
filled store's p99 against the empty one's over all rounds and round by round (on a machine
shared with other jobs, one busy slice can decide the pooled p99), and its server CPU per move
against the empty one's. Last, with the servers stopped, it times the store's own operations
in this process (a new game added, then read and written back after each of its first moves),
alternating between a fresh file and the filled one: CPU time that other jobs hardly change.

With --max-entries well above --games eviction never runs, and the figures are the cost of a big
table and its indexes alone.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec

from bench.server_load import (
    HEADER, PACE, Player, Tally, load_average, percentile, phase, production_server, report,
)
from engine import Game
from harness import long_game
from webapp.store.game_record import FIELD_TYPES, GameRecord, new_game_id
from webapp.store.retention import Retention
from webapp.store.sessions import today
from webapp.store.sqlite_db import Database
from webapp.store.sqlite_games import SqliteGames

TYPICAL_MOVES = 300
LIFETIME_DAYS = 30  # SESSION_LIFETIME_DAYS's default: how long a played game lives
SPREAD_DAYS = LIFETIME_DAYS - 1  # so none of the stored games expires during the run
SESSION_ID_BYTES = 32  # Flask-Session's default session id length
MOVES_PER_GAME = 5
OPERATION_GAMES = 2_000
#: Moves after which a bench player starts a new game: about one request in six then evicts.
NEW_GAME_EVERY = 10


async def play_and_start_over(player: Player, rng: random.Random) -> None:
    """Player.play, but a new game (timed like a move) once the game has NEW_GAME_EVERY moves:
    in a full store its played session, and then its first move, each push out the least
    recently played."""
    if player.seq < NEW_GAME_EVERY:
        await player.play(rng)
        return
    answer = await player.timed("POST", "/new", player.form({}))
    if answer.status == 200:
        player.take(answer)


def originals_left(path: Path, filled_at: float) -> tuple[int, int]:
    """How many of the games and sessions the file was filled with are still in it."""
    connection = sqlite3.connect(path)
    try:
        return tuple(connection.execute(query, (filled_at,)).fetchone()[0] for query in (
            "SELECT count(*) FROM games WHERE created < ?",
            "SELECT count(*) FROM sessions WHERE last_played < ?"))
    finally:
        connection.close()


def played_record(game: Game) -> dict:
    """A played game's stored fields, as the app writes them."""
    return GameRecord(new_game_id(), game, seq=game.moves, played=True).to_fields()


def spread_times(count: int, now: float) -> Iterator[float]:
    """count last-played times, oldest first, evenly over the past SPREAD_DAYS days."""
    span = SPREAD_DAYS * 86400.0
    return (now - span + span * (index + 0.5) / count for index in range(count))


def fill(path: Path, template: dict, count: int, sessions: bool) -> tuple[int, int]:
    """Build `path` (the app's schema) with `count` copies of the record `template` under fresh
    ids, and a played session naming each when `sessions`: (bytes with games, bytes in all)."""
    Database(path, busy_timeout=2.0)  # the schema, exactly as the app makes it
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode = OFF")
    connection.execute("PRAGMA synchronous = OFF")
    now, columns = time.time(), tuple(FIELD_TYPES)
    game_ids = sorted(new_game_id() for _ in range(count))
    insert = f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"

    def game_rows() -> Iterator[tuple]:
        for game_id, played in zip(game_ids, spread_times(count, now)):
            values = {**template, "id": game_id, "created": played - 600.0, "last_played": played}
            yield tuple(values[name] for name in columns)

    def session_rows() -> Iterator[tuple]:
        session_ids = sorted(secrets.token_urlsafe(SESSION_ID_BYTES) for _ in range(count))
        for session_id, game_id, played in zip(session_ids, game_ids, spread_times(count, now)):
            data = msgspec.msgpack.encode({"_permanent": True, "csrf_token": secrets.token_hex(20),
                                           "game": game_id, "games": [], "played": True,
                                           "touched": today()})
            yield session_id, data, 1, played

    connection.execute("BEGIN")
    connection.executemany(insert, game_rows())
    connection.execute("COMMIT")
    with_games = path.stat().st_size
    if sessions:
        connection.execute("BEGIN")
        connection.executemany("INSERT INTO sessions VALUES (?, ?, ?, ?)", session_rows())
        connection.execute("COMMIT")
    connection.execute("PRAGMA journal_mode = WAL")  # as the app keeps it
    connection.close()
    with path.open("rb") as written:  # on disk before any server starts, as a live file is: the
        os.fsync(written.fileno())  # first checkpoint must not wait for a gigabyte to be written
    return with_games, path.stat().st_size


def operation_ms(games: SqliteGames, count: int) -> float:
    """CPU milliseconds per store operation over `count` new games, each added and then read and
    written back after each of MOVES_PER_GAME moves, as the routes do."""
    started = time.process_time()
    for _ in range(count):
        record = GameRecord.start(Game.new(seed=secrets.randbits(32)))
        games.add(record)
        for _ in range(MOVES_PER_GAME):
            record = games.get(record.id)
            record.game.move(record.game.legal_moves()[0])
            record.seq, record.played = record.seq + 1, True
            assert games.replace(record)
    return (time.process_time() - started) * 1000 / (count * (1 + 2 * MOVES_PER_GAME))


def print_operations(paths: dict[str, Path], max_entries: int, rounds: int) -> None:
    """The store's own cost on each file, in this process, alternating between them."""
    retention = Retention(played_lifetime=LIFETIME_DAYS * 86400.0, max_entries=max_entries)
    stores = {name: SqliteGames(Database(path, busy_timeout=2.0), retention)
              for name, path in paths.items()}
    costs: dict[str, list[float]] = {name: [] for name in paths}
    for number in range(rounds):
        for name in paths if number % 2 == 0 else reversed(paths):
            costs[name].append(operation_ms(stores[name], OPERATION_GAMES))
    medians = {name: statistics.median(values) for name, values in costs.items()}
    empty, filled = medians.values()
    print(f"store operations in this process (add, get, compare-and-set; {rounds} rounds): "
          f"{empty:.3f} ms CPU each on the empty file, {filled:.3f} ms on the filled one "
          f"({filled / empty:.0%})", flush=True)


def print_paced(tallies: dict[str, Tally], ratios: list[float], label: dict[str, str]) -> None:
    """Each store's figures over all rounds, and the filled store's p99 against the empty one's."""
    print(HEADER)
    cpu = {name: report(label[name], "paced", tally)[1] for name, tally in tallies.items()}
    pooled = {name: percentile(tally.latencies, 0.99) for name, tally in tallies.items()}
    print(f"filled store's paced p99 at {pooled['filled'] / pooled['empty']:.0%} of the empty "
          f"one's over all rounds; round by round {statistics.median(ratios):.0%} at the "
          f"median ({min(ratios):.0%} to {max(ratios):.0%}); its server CPU per move at "
          f"{cpu['filled'] / cpu['empty']:.0%}", flush=True)


def print_size(label: str, template: dict, count: int, path: Path, sessions: bool) -> None:
    started = time.perf_counter()
    with_games, in_all = fill(path, template, count, sessions)
    record_bytes = len(template["game"])
    line = (f"{label}: {count:,} games in {time.perf_counter() - started:.1f} s; the game "
            f"{record_bytes:,} bytes; file {with_games / count:,.0f} bytes per game")
    if sessions:
        line += f", {in_all / count:,.0f} with its session ({in_all / 2**20:,.0f} MiB in all)"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--long-games", type=int, default=20_000)
    parser.add_argument("--max-entries", type=int, default=None,
                        help="SESSION_STORE_MAX_ENTRIES (default: --games, a full store)")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each slice")
    parser.add_argument("--max-moves", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--dir", type=Path, default=None, help="where to build the files")
    args = parser.parse_args()
    args.max_entries = args.max_entries or args.games

    long = long_game.load()
    typical = Game.replay(long.history, TYPICAL_MOVES)
    with tempfile.TemporaryDirectory(dir=args.dir) as scratch:
        print_size(f"{long.moves:,}-move game", played_record(long), args.long_games,
                   Path(scratch) / "long.sqlite3", sessions=False)
        os.remove(Path(scratch) / "long.sqlite3")
        filled_path = Path(scratch) / "filled.sqlite3"
        print_size(f"{TYPICAL_MOVES}-move game", played_record(typical), args.games,
                   filled_path, sessions=True)
        filled_at = time.time()

        settings = {"SESSION_STORE_MAX_ENTRIES": str(args.max_entries)}
        label = {"empty": "sqlite empty", "filled": f"sqlite {args.games // 1000:,}k"}
        tallies = {"empty": Tally(), "filled": Tally()}
        ratios = []  # each round's filled p99 over its empty p99
        with production_server("sqlite", settings=settings) as empty, \
                production_server("sqlite", filled_path, settings) as filled:
            servers = {"empty": empty, "filled": filled}
            print(f"SESSION_STORE_MAX_ENTRIES={args.max_entries:,}; {args.rounds} rounds of "
                  f"{args.seconds:g} s paced slices, {args.players} players", flush=True)
            for number in range(args.rounds):
                order = ("empty", "filled") if number % 2 == 0 else ("filled", "empty")
                p99 = {}
                for name in order:
                    tally = phase(servers[name], play_and_start_over, PACE, args.seconds,
                                  args.players, args.max_moves)
                    tallies[name].add(tally)
                    p99[name] = percentile(tally.latencies, 0.99)
                ratios.append(p99["filled"] / p99["empty"])
                seen = ", ".join(f"{name} p99 {p99[name] * 1000:.1f} ms" for name in order)
                print(f"# round {number + 1}: {seen}; load average {load_average()}", flush=True)
            print_paced(tallies, ratios, label)
            games_left, sessions_left = originals_left(filled_path, filled_at)
            print(f"evicted from the full store while it served: {args.games - games_left:,} of "
                  f"its {args.games:,} games and {args.games - sessions_left:,} of its sessions, "
                  "the least recently played", flush=True)
        print_operations({"empty": Path(scratch) / "empty.sqlite3", "filled": filled_path},
                         args.max_entries, rounds=4)


if __name__ == "__main__":
    main()
