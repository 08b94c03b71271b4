"""Measure the solver's strength and speed by playing whole games from fixed seeds.

    python bench/solver_strength.py --setting fast --games 50 --first-seed 1000
    python bench/solver_strength.py --setting all --games 4 --first-seed 1 --max-moves 500
    python bench/solver_strength.py --compare fast --games 50 --first-seed 1001
    python bench/solver_strength.py --setting network-strong --weights /tmp/w.npz --games 12

Game i uses seed first_seed + i and is played through engine.Game, keeping playing after 2048.
Prints, per setting, the share of games reaching each tile, scores and time per move, and merges
the figures into a JSON file (one entry per setting, so settings can be measured separately).
The entry is rewritten as each game finishes, in seed order, so a long run that has to be
stopped still leaves the figures of the games it completed. Times are the solver's thinking
time per move (wall clock, and the CPU time of the searching thread for a busy machine); each
entry also records the machine's mean 1-minute load average while its games were played, and
how many moves' searches the time budget stopped: only those can differ from a quiet machine's.

--compare fast (or strong) plays the setting and its alternative on the other evaluation
(settings.ALTERNATIVES) on the same seeds, game by game in turn, so both meet the same machine
load; figures of settings that are not the game's go under "comparison" in the JSON file,
beside the page's "settings". --weights plays the network from another weights file (a
training checkpoint exported with bench/train_ntuple.py --export); each entry of a setting
that uses the network records how many games it had trained.
"""

import argparse
import datetime
import fcntl
import json
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout
import engine  # noqa: E402
import engine.solver  # noqa: E402
from engine.solver import weights_file  # noqa: E402
from engine.solver.settings import ALTERNATIVES  # noqa: E402
from engine.solver.solver import WARM_UP_BOARD  # noqa: E402

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
    return "comparison" if setting in COMPARED else "settings"


def play_game(job: tuple[str, int, int | None]) -> dict:
    """Play one game with the solver; return its outcome and the time each move took."""
    name, seed, max_moves = job
    setting = COMPARED.get(name, name)
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
        "setting": name,
        "seed": seed,
        "score": game.score,
        "max_tile": max(max(row) for row in game.rows),
        "move_seconds": move_seconds,
        "move_cpu_seconds": move_cpu_seconds,
        "cut_by_time": cut_by_time,
        "load_average": os.getloadavg()[0],
    }


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def uses_network(setting: str) -> bool:
    """Whether the setting's leaves are the network's."""
    chosen = COMPARED.get(setting) or engine.solver.SETTINGS[setting]
    return chosen.evaluation == "network"


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

    A lock next to the file lets runs of different settings write at the same time.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock.tmp"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        results = json.loads(path.read_text()) if path.exists() else {"settings": {}}
        results.setdefault(section_of(setting), {})[setting] = summary
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(results, indent=2) + "\n")
        os.replace(temporary, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setting", action="append",
                        choices=[*engine.solver.SETTINGS, *COMPARED, "all"],
                        help="setting to measure (repeatable, or 'all'); default fast")
    parser.add_argument("--compare", choices=list(ALTERNATIVES),
                        help="measure this setting and its alternative side by side")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-moves", type=int, help="stop each game after this many moves")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="results file to merge in")
    parser.add_argument("--weights", type=Path, default=weights_file.SHIPPED,
                        help="the network's weights file")
    args = parser.parse_args()
    chosen = args.setting or ([] if args.compare else ["fast"])
    chosen += [args.compare, ALTERNATIVES[args.compare].name] if args.compare else []
    settings = list(engine.solver.SETTINGS) if "all" in chosen else list(dict.fromkeys(chosen))

    # Settings take turns game by game, so a run measured side by side meets the same load.
    jobs = [(setting, args.first_seed + i, args.max_moves)
            for i in range(args.games) for setting in settings]
    games: dict[str, list[dict]] = {setting: [] for setting in settings}
    trained = weights_file.training_counters(args.weights)["games"]
    network_games = {setting: trained if uses_network(setting) else None for setting in settings}
    with multiprocessing.Pool(args.workers, initializer=start_worker,
                              initargs=(args.weights,)) as pool:
        for game in tqdm(pool.imap(play_game, jobs), total=len(jobs)):
            played = games[game["setting"]]
            played.append(game)
            merge_into(args.json, game["setting"], summarize(
                played, args.first_seed, args.max_moves, network_games[game["setting"]]))
    for setting, played in games.items():
        print_summary(setting, summarize(played, args.first_seed, args.max_moves,
                                         network_games[setting]), played)


if __name__ == "__main__":
    main()
