"""The late-game probes: how a network plays on from fixed late boards, judged in minutes.

    python -m training.probes screen --weights /tmp/candidate.npz --against shipped
    python -m training.probes gate --weights /tmp/candidate.npz --against shipped
    python -m training.probes final --weights /tmp/candidate.npz --against shipped --log final.jsonl

The start boards are training/late_starts.json (made by training.late_starts): the first board
holding 16384 of `fast` games on fixed seeds (`--boards 16384`, the default), or their first
holding 16384 and 8192 (`--boards 16384+8192`). A probe plays each board on to the game's end,
`--spawns` times with spawn seeds fixed by the board and the try, so two networks meet the same
tiles for as long as they play alike (paired starts):

- screen: two moves ahead (0.1 ms a move), 4 tries a board: a few hundred games in minutes;
- gate: `fast`, once a board: about 7 minutes of both cores;
- final: `strong`, once a board: the 32768 share of `strong`'s games, 1.3 hours or more.

Each network's line gives the mean points added from the start with its standard error, the
share of games that built an 8192 beside the 16384 (the second chain half built), the share
that reached 32768, and the share of positions whose largest tile is 16384 that hold it in a
corner; with `--against`, the paired difference of points added with its standard error. Games
go to `--log` (JSON lines) as they end; a probe given the same log plays only the games it
lacks, so a long one stopped part-way goes on later (a logged game is known by its network's
digest, the set of boards, the board and the try); `--report` prints the lines of the games the
log holds so far and plays none (the paired line over the boards both networks played).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import engine
from engine.solver import Setting, Solver, default_cache_dir, weights_file
from engine.solver.ntuple import Network
from engine.solver.settings import SETTINGS
from training.late_game import BOUNDARIES, largest_in_corner, reached
from training.late_starts import STARTS_FILE

TWO_AHEAD = Setting("two-ahead", 2, 2, 0, 1e-3, 20_000, 60.0, "network")
SECOND_CHAIN = BOUNDARIES[1]
LATE_TILE, GOAL_TILE = BOUNDARIES[0].largest, 2 * BOUNDARIES[0].largest


@dataclass(frozen=True)
class Probe:
    """A way to judge a network: the setting that plays, and the tries from each board."""

    name: str
    setting: Setting
    spawns: int


PROBES = {probe.name: probe for probe in (
    Probe("screen", TWO_AHEAD, 4),
    Probe("gate", SETTINGS["fast"], 1),
    Probe("final", SETTINGS["strong"], 1),
)}


@dataclass(frozen=True)
class Start:
    """A start board of the probes: the game it came from, its tiles, its score and the
    boundary it is the game's first board past (the set of boards it belongs to)."""

    seed: int
    rows: tuple[tuple[int, ...], ...]
    score: int
    boards: str = BOUNDARIES[0].name


def late_starts(boundary: str = BOUNDARIES[0].name, path: Path = STARTS_FILE) -> list[Start]:
    """The start boards past `boundary` ("16384" or "16384+8192"), in the games' order."""
    games = json.loads(path.read_text())["games"]
    return [Start(game["seed"], tuple(map(tuple, game[boundary]["rows"])),
                  game[boundary]["score"], boundary) for game in games if boundary in game]


def game_key(game: dict) -> tuple[str | None, int, int]:
    """What tells a probe's games apart within a network's: the set of boards, the board and
    the try (a line logged before games kept their set of boards has none, and is played
    again)."""
    return game.get("boards"), game["start"], game["attempt"]


def start_key(start: Start, attempt: int) -> tuple[str | None, int, int]:
    """The `game_key` of the game of try `attempt` on `start`."""
    return start.boards, start.seed, attempt


def spawn_seed(start: Start, attempt: int) -> int:
    """The seed of the tiles that appear in try `attempt` (from 0) on `start`'s board."""
    return 1000 * start.seed + attempt + 1


def play_on(solver: Solver, setting: Setting, start: Start, attempt: int) -> dict:
    """Play from `start`'s board to the end of the game; what the probes count of it."""
    game = engine.Game.from_rows(start.rows, score=start.score,
                                 seed=spawn_seed(start, attempt))
    late_positions = cornered = 0
    second_chain = False
    cpu = time.thread_time()
    while not game.over:
        if game.awaiting_choice:
            game.keep_playing()
        rows = game.rows
        second_chain = second_chain or reached(rows, SECOND_CHAIN)
        if max(map(max, rows)) == LATE_TILE:
            late_positions += 1
            cornered += largest_in_corner(rows)
        game.move(solver.choose(rows, setting))
    return {"boards": start.boards, "start": start.seed, "attempt": attempt,
            "points": game.score - start.score, "moves": game.moves, "largest": game.best_tile,
            "second_chain": second_chain, "late_positions": late_positions, "cornered": cornered,
            "cpu_seconds": time.thread_time() - cpu}


@dataclass(frozen=True)
class Summary:
    """A network's games on a probe, summed up."""

    games: int
    points: float
    points_error: float
    second_chain: int
    goal: int
    cornered: float
    ms_a_move: float

    @classmethod
    def of(cls, games: list[dict]) -> Summary:
        points = [game["points"] for game in games]
        late = sum(game["late_positions"] for game in games)
        moves = sum(game["moves"] for game in games)
        return cls(len(games), mean(points), standard_error(points),
                   sum(game["second_chain"] for game in games),
                   sum(game["largest"] >= GOAL_TILE for game in games),
                   sum(game["cornered"] for game in games) / late if late else math.nan,
                   1000 * sum(game["cpu_seconds"] for game in games) / max(moves, 1))

    def line(self) -> str:
        return (f"{self.games} games: points added {self.points:,.0f} "
                f"(se {self.points_error:,.0f}), second 8192 {self.second_chain / self.games:.0%}"
                f", 32768 {self.goal / self.games:.0%} ({self.goal}), 16384 in a corner "
                f"{self.cornered:.1%}, {self.ms_a_move:.2f} ms CPU a move")


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def standard_error(values: list[float]) -> float:
    """The standard error of the mean of `values` (nan for fewer than two)."""
    if len(values) < 2:
        return math.nan
    average = mean(values)
    return math.sqrt(sum((value - average) ** 2 for value in values)
                     / (len(values) - 1) / len(values))


def paired_line(games: list[dict], baseline: list[dict]) -> str:
    """The paired difference of points added between two networks' games on the same starts
    and spawn seeds (only the pairs both played)."""
    theirs = {game_key(game): game for game in baseline}
    pairs = [(game, theirs[key]) for game in games if (key := game_key(game)) in theirs]
    differences = [ours["points"] - other["points"] for ours, other in pairs]
    ahead = sum(difference > 0 for difference in differences)
    goals = [sum(game["largest"] >= GOAL_TILE for game in side) for side in zip(*pairs)]
    return (f"paired over {len(pairs)}: {mean(differences):+,.0f} points added "
            f"(se {standard_error(differences):,.0f}), ahead in {ahead}, 32768 "
            f"{goals[0] if goals else 0} against {goals[1] if goals else 0}")


_solvers: dict[str, Solver] = {}  # each worker process's, by network label


def _play_job(job: tuple[str, Setting, Start, int]) -> tuple[str, dict]:
    label, setting, start, attempt = job
    return label, play_on(_solvers[label], setting, start, attempt)


def play_jobs(networks: dict[str, Network], jobs: list[tuple[str, Setting, Start, int]],
              workers: int) -> Iterator[tuple[str, dict]]:
    """Each job's game, as it ends, played by `workers` processes that share the parent's
    networks (forked, so nothing is copied until written, and nothing is)."""
    _solvers.clear()
    _solvers.update({label: Solver(default_cache_dir(), weights=network, max_searches=1)
                     for label, network in networks.items()})
    if workers <= 1:
        yield from map(_play_job, jobs)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(_play_job, jobs)


def run_probe(probe: Probe, networks: dict[str, Network], starts: list[Start], workers: int,
              done: dict[str, list[dict]] | None = None, log: Path | None = None
              ) -> dict[str, list[dict]]:
    """Every network's games on the probe (those in `done` not played again), each game
    appended to `log` as it ends; by network label."""
    games = {label: on_starts((done or {}).get(label, []), probe, starts)
             for label in networks}
    played = {(label, game_key(game)) for label in games for game in games[label]}
    jobs = [(label, probe.setting, start, attempt) for attempt in range(probe.spawns)
            for start in starts for label in networks
            if (label, start_key(start, attempt)) not in played]
    for label, game in play_jobs(networks, jobs, workers):
        games[label].append(game)
        if log is not None:
            with log.open("a") as file:
                file.write(json.dumps({"network": label, "probe": probe.name, **game}) + "\n")
    return games


def on_starts(games: list[dict], probe: Probe, starts: list[Start]) -> list[dict]:
    """The games of `games` that `probe` plays from `starts` (a log may hold others)."""
    wanted = {start_key(start, attempt) for start in starts for attempt in range(probe.spawns)}
    return [game for game in games if game_key(game) in wanted]


def screen_line(network: Network, workers: int, starts: list[Start] | None = None) -> str:
    """The screen of one network, as a line for the trainer's log."""
    games = run_probe(PROBES["screen"], {"network": network}, starts or late_starts(), workers)
    return "screen " + Summary.of(games["network"]).line()


def file_label(path: Path) -> str:
    """A weights file's name for the log: its path and the start of its digest."""
    with path.open("rb") as file:
        return f"{path}@{hashlib.file_digest(file, 'sha256').hexdigest()[:12]}"


def logged_games(log: Path | None, probe: str, labels: Iterable[str]) -> dict[str, list[dict]]:
    """The games of `log` played on `probe` by the networks labelled `labels`, known by their
    digests (the same file logged from another clone or folder is the same network)."""
    games: dict[str, list[dict]] = {label: [] for label in labels}
    by_digest = {digest(label): label for label in games}
    if log is None or not log.exists():
        return games
    for line in log.read_text().splitlines():
        game = json.loads(line)
        label = by_digest.get(digest(game.pop("network")))
        if game.pop("probe") == probe and label is not None:
            games[label].append(game)
    return games


def digest(label: str) -> str:
    """The digest part of a network's label (`file_label`)."""
    return label.rpartition("@")[2]


def weights_path(name: str) -> Path:
    return weights_file.SHIPPED if name == "shipped" else Path(name)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe", choices=sorted(PROBES))
    parser.add_argument("--weights", default="shipped", help="a weights file, or 'shipped'")
    parser.add_argument("--against", help="another weights file (or 'shipped'), paired")
    parser.add_argument("--boards", default=BOUNDARIES[0].name,
                        choices=[boundary.name for boundary in BOUNDARIES])
    parser.add_argument("--first", type=int, help="only the first N start boards")
    parser.add_argument("--spawns", type=int, help="tries a board (the probe's own by default)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--log", type=Path, help="JSON lines of every game; resumed from")
    parser.add_argument("--report", action="store_true",
                        help="print the lines of the games in --log so far; play none")
    args = parser.parse_args(argv)
    if args.report and args.log is None:
        parser.error("--report reads the games of a --log")
    probe = PROBES[args.probe]
    if args.spawns:
        probe = Probe(probe.name, probe.setting, args.spawns)
    paths = [weights_path(name) for name in (args.weights, args.against) if name]
    labels = [file_label(path) for path in paths]
    starts = late_starts(args.boards)[:args.first]
    print(f"{probe.name}: {probe.setting.name}, {len(starts)} boards past {args.boards} x "
          f"{probe.spawns}", flush=True)
    done = logged_games(args.log, probe.name, labels)
    if args.report:
        games = {label: on_starts(done[label], probe, starts) for label in labels}
    else:
        networks = {label: weights_file.load(path) for label, path in zip(labels, paths)}
        games = run_probe(probe, networks, starts, args.workers, done, args.log)
    for label in labels:
        print(f"{label}: {Summary.of(games[label]).line() if games[label] else 'no games'}")
    if len(labels) == 2:
        print(f"{labels[0]} against {labels[1]}: {paired_line(*(games[l] for l in labels))}")


if __name__ == "__main__":
    main()
