"""Measure the solver's strength and speed by playing whole games from fixed seeds.

    python -m bench.solver_strength --setting fast --games 50 --first-seed 1000
    python -m bench.solver_strength --setting all --games 4 --first-seed 1 --max-moves 500
    python -m bench.solver_strength --compare fast --games 50 --first-seed 1001
    python -m bench.solver_strength --setting strong --weights /tmp/w.npz --games 12
    python -m bench.solver_strength --variant deeper=strong:min_depth=6,max_depth=7 \
        --setting deeper --games 12 --games-log ~/.cache/game2048-solver/strength-games.jsonl

Game i uses seed first_seed + i and is played through engine.Game, keeping playing after 2048.
Prints, per setting, the share of games reaching each tile, scores and time per move, and merges
the figures into a JSON file (one entry per setting, so settings can be measured separately):
--json, by default the solver page's own file, which only the shipped network's games write
(a run with --weights writes none unless --json names one).
The entry is rewritten as each game finishes, in seed order, so a long run that has to be
stopped still leaves the figures of the games it completed. Times are the solver's thinking
time per move (wall clock, and the CPU time of the searching thread for a busy machine); each
entry also records the machine's mean 1-minute load average while its games were played, and
how many moves' searches the time budget stopped: only those can differ from a quiet machine's.

--compare fast (or strong) plays the setting and its alternative on the other evaluation
(settings.ALTERNATIVES) on the same seeds, game by game in turn, so both meet the same machine
load; figures of settings that are not the game's go under "comparison" in the JSON file,
beside the page's "settings". --weights plays the network from another weights file (a
training checkpoint exported with training/trainer.py --export); each entry of a setting
that uses the network records how many games it had trained.

--variant NAME=BASE:field=value,... measures a setting made from another one (of the game's
settings or their alternatives) with some fields changed, under "comparison": a candidate to
try before it becomes one of settings.py's. --games-log keeps every finished game in a file of
JSON lines, and a later run with the same file plays only the games it does not hold yet (the
same setting, every field alike, seed, move limit and network), so a run of many hours can be
stopped and taken up again in another session.
"""

import argparse
import dataclasses
import datetime
import fcntl
import json
import multiprocessing
import os
import statistics
import time
from pathlib import Path

from tqdm import tqdm

import engine
import engine.solver
from engine.solver import weights_file
from engine.solver.settings import ALTERNATIVES, Setting
from engine.solver.solver import WARM_UP_BOARD

MILESTONES = (2048, 4096, 8192, 16384, 32768)
# The solver page reads this file; it ships with the app.
DEFAULT_JSON = Path(__file__).resolve().parent.parent / "webapp" / "pages" / "solver_strength.json"
# Measured beside the game's settings, and kept apart from them in the JSON file.
COMPARED = {setting.name: setting for setting in ALTERNATIVES.values()}
_solver: engine.solver.Solver | None = None  # each worker process's own


def start_worker(weights: Path) -> None:
    """Make this worker's solver with the chosen weights, warmed up, its network read (the
    solver reads it when a search first asks for it) before any move is timed."""
    global _solver
    _solver = engine.solver.Solver(engine.solver.default_cache_dir(), weights=weights)
    _solver.warm_up()
    for setting in COMPARED.values():
        _solver.search(WARM_UP_BOARD, setting)


def section_of(setting: str) -> str:
    """Where a setting's figures go in the JSON file."""
    return "settings" if setting in engine.solver.SETTINGS else "comparison"


def play_game(job: tuple[Setting, int, int | None]) -> dict:
    """Play one game with the solver; return its outcome and the time each move took."""
    setting, seed, max_moves = job
    solver = _solver
    game = engine.Game.new(seed)
    move_seconds, move_cpu_seconds, cut_by_time = [], [], 0
    while not game.over and (max_moves is None or game.moves < max_moves):
        if game.awaiting_choice:
            game.keep_playing()
        started, cpu_started = time.perf_counter(), time.thread_time()
        found = solver.search(game.rows, setting)
        direction = found.best
        cut_by_time += found.stopped_by == "time"
        move_seconds.append(time.perf_counter() - started)
        move_cpu_seconds.append(time.thread_time() - cpu_started)
        if direction is None or not game.move(direction):
            raise RuntimeError(f"seed {seed}: solver chose {direction!r} on {game.rows}")
    return {
        "setting": setting.name,
        "seed": seed,
        "score": game.score,
        "max_tile": max(max(row) for row in game.rows),
        "move_seconds": move_seconds,
        "move_cpu_seconds": move_cpu_seconds,
        "cut_by_time": cut_by_time,
        "load_average": os.getloadavg()[0],
    }


def variant(text: str, known: dict[str, Setting]) -> Setting:
    """The setting NAME=BASE:field=value,... describes: `known[BASE]` renamed, fields changed."""
    name, _, rest = text.partition("=")
    base, _, changes = rest.partition(":")
    if not name or base not in known:
        raise argparse.ArgumentTypeError(f"{text!r}: not NAME=BASE:field=value,... with BASE one"
                                         f" of {', '.join(known)}")
    fields = {field.name for field in dataclasses.fields(Setting)} - {"name"}
    changed: dict[str, object] = {"name": name}
    for change in filter(None, changes.split(",")):
        field, _, value = change.partition("=")
        if field not in fields:
            raise argparse.ArgumentTypeError(f"{text!r}: no field {field!r} to change")
        changed[field] = type(getattr(known[base], field))(value)  # int, float or str
    return dataclasses.replace(known[base], **changed)


def network_of(setting: Setting, trained: int) -> int | None:
    """The games the network had trained if the setting plays with it, else None."""
    return trained if setting.evaluation == "network" else None


class GamesLog:
    """Finished games kept as JSON lines, each with what decides its moves (the setting's
    fields, seed, move limit, network), so a run can leave out the games it already holds."""

    def __init__(self, path: Path | None, network_games: int) -> None:
        self.path, self.network_games = path, network_games
        self.games: dict[str, dict] = {}
        if path is not None and path.exists():
            for line in path.read_text().splitlines():
                try:
                    game = json.loads(line)
                except ValueError:  # a line cut off when a run was stopped: played again
                    continue
                self.games[game["key"]] = game

    def key(self, setting: Setting, seed: int, max_moves: int | None) -> str:
        """What the moves of one game depend on, as one text."""
        network = network_of(setting, self.network_games)
        return json.dumps([dataclasses.asdict(setting), seed, max_moves, network])

    def find(self, setting: Setting, seed: int, max_moves: int | None) -> dict | None:
        """The logged game these would play, if any."""
        return self.games.get(self.key(setting, seed, max_moves))

    def add(self, setting: Setting, max_moves: int | None, game: dict) -> None:
        """Append a finished game to the file."""
        if self.path is None:
            return
        logged = {"key": self.key(setting, game["seed"], max_moves), **game}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a") as log:
            log.write(json.dumps(logged) + "\n")


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summarize(games: list[dict], first_seed: int, max_moves: int | None,
              network_games: int | None = None) -> dict:
    """The figures for one setting, in the shape the solver page renders."""
    move_ms = [seconds * 1000 for game in games for seconds in game["move_seconds"]]
    move_cpu_ms = [seconds * 1000 for game in games for seconds in game["move_cpu_seconds"]]
    scores = [game["score"] for game in games]
    summary = {
        "games": len(games),
        "first_seed": first_seed,
        "reached": {
            str(tile): sum(game["max_tile"] >= tile for game in games) / len(games)
            for tile in MILESTONES
        },
        "mean_score": round(statistics.mean(scores)),
        "median_score": round(statistics.median(scores)),
        "median_ms_per_move": round(statistics.median(move_ms), 2),
        "p95_ms_per_move": round(percentile(move_ms, 0.95), 2),
        "moves_per_second": round(1000 * len(move_ms) / sum(move_ms), 1),
        # CPU time of the searching thread: the solver's own cost on a machine busy with more
        "median_cpu_ms_per_move": round(statistics.median(move_cpu_ms), 2),
        "p95_cpu_ms_per_move": round(percentile(move_cpu_ms, 0.95), 2),
        "load_average": round(statistics.mean(game["load_average"] for game in games), 2),
        # moves whose search the time budget stopped: only these can differ from a quiet run
        "moves_cut_by_time": sum(game["cut_by_time"] for game in games),
        "measured_on": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
    }
    if max_moves is not None:
        summary["max_moves"] = max_moves
    if network_games is not None:
        summary["network_games"] = network_games
    return summary


def print_summary(setting: str, summary: dict, games: list[dict]) -> None:
    print(f"\n== {setting}: {summary['games']} games, seeds {summary['first_seed']}.."
          f"{summary['first_seed'] + summary['games'] - 1}")
    for tile, share in summary["reached"].items():
        print(f"  reached {tile:>5}: {share:6.1%}")
    for key in ("mean_score", "median_score", "median_ms_per_move", "p95_ms_per_move",
                "moves_per_second", "median_cpu_ms_per_move", "p95_cpu_ms_per_move",
                "load_average", "moves_cut_by_time", "network_games"):
        if key not in summary:
            continue
        print(f"  {key.replace('_', ' ')}: {summary[key]}")
    tiles = sorted(game["max_tile"] for game in games)
    print(f"  largest tile per game: {tiles}")


def merge_into(path: Path, setting: str, summary: dict) -> None:
    """Replace one setting's entry in the results file, keeping the others.

    A lock on the file's folder (the file itself is replaced, not written in place) lets runs
    of different settings write at the same time, and leaves no lock file behind.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        results = json.loads(path.read_text()) if path.exists() else {"settings": {}}
        results.setdefault(section_of(setting), {})[setting] = summary
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(results, indent=2) + "\n")
        os.replace(temporary, path)
    finally:
        os.close(folder)  # and the lock with it


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setting", action="append",
                        help="setting to measure (repeatable, or 'all'): one of the game's, "
                             f"{', '.join(COMPARED)} or a --variant's name; default fast")
    parser.add_argument("--compare", choices=list(ALTERNATIVES),
                        help="measure this setting and its alternative side by side")
    parser.add_argument("--variant", action="append", default=[],
                        metavar="NAME=BASE:FIELD=VALUE,...",
                        help="a setting made from BASE with these fields changed (repeatable)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-moves", type=int, help="stop each game after this many moves")
    parser.add_argument("--json", type=Path,
                        help="results file to merge in (default: the solver page's file when "
                             "playing the shipped network, none for another --weights)")
    parser.add_argument("--weights", type=Path, default=weights_file.SHIPPED,
                        help="the network's weights file")
    parser.add_argument("--games-log", type=Path,
                        help="keep finished games here, and play only those it does not hold")
    args = parser.parse_args()
    known = {**engine.solver.SETTINGS, **COMPARED}
    for text in args.variant:
        try:
            made = variant(text, known)
        except (argparse.ArgumentTypeError, ValueError) as error:
            parser.error(str(error))
        known[made.name] = made
    chosen = args.setting or ([] if args.compare else ["fast"])
    chosen += [args.compare, ALTERNATIVES[args.compare].name] if args.compare else []
    names = list(engine.solver.SETTINGS) if "all" in chosen else list(dict.fromkeys(chosen))
    if unknown := [name for name in names if name not in known]:
        parser.error(f"unknown setting {', '.join(unknown)}: choose from {', '.join(known)}")

    results = args.json or (DEFAULT_JSON if args.weights == weights_file.SHIPPED else None)
    trained = weights_file.training_counters(args.weights)["games"]
    log = GamesLog(args.games_log, trained)
    games: dict[str, list[dict]] = {name: [] for name in names}

    def finished(setting: Setting, game: dict) -> None:
        played = games[setting.name]
        played.append(game)
        played.sort(key=lambda one: one["seed"])
        if results:
            merge_into(results, setting.name, summarize(played, args.first_seed, args.max_moves,
                                                        network_of(setting, trained)))

    # Settings take turns game by game, so a run measured side by side meets the same load.
    jobs = [(known[name], args.first_seed + i, args.max_moves)
            for i in range(args.games) for name in names]
    to_play = []
    for job in jobs:
        logged = log.find(*job)
        if logged is None:
            to_play.append(job)
        else:
            finished(job[0], logged)
    with multiprocessing.Pool(args.workers, initializer=start_worker,
                              initargs=(args.weights,)) as pool:
        for job, game in zip(to_play, tqdm(pool.imap(play_game, to_play), total=len(to_play))):
            log.add(job[0], args.max_moves, game)
            finished(job[0], game)
    for name, played in games.items():
        print_summary(name, summarize(played, args.first_seed, args.max_moves,
                                      network_of(known[name], trained)), played)


if __name__ == "__main__":
    main()
