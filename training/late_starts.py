"""Make the late-game probes' start boards: `fast` games on fixed seeds, played from an empty
board with the shipped network until they first hold 16384, and on until they first hold 16384
and 8192 beside it.

    python -m training.late_starts --boards 50           # writes training/late_starts.json

Each game is `engine.Game.new(seed)` for seeds 1, 2, ... until `--boards` games have reached
16384 (a game that ends first gives no board). For each, the file keeps the seed, and at each
of the two boundaries the position (tile values, the player to move), the score and the move
count; a game that ends before its second boundary keeps the first alone. Moves depend only on
the board and the setting, so the file is the same on any machine (about 30 s of CPU a game).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from pathlib import Path

import engine
from engine.solver import Solver, default_cache_dir
from training.late_game import BOUNDARIES, Boundary, reached

STARTS_FILE = Path(__file__).with_name("late_starts.json")
_solver: Solver | None = None  # each worker process's own


def start_worker() -> None:
    """This worker's solver, warmed up (its network mapped from the shared cache)."""
    global _solver
    _solver = Solver(default_cache_dir())
    _solver.warm_up()


def boundary_positions(seed: int, setting: str = "fast") -> dict:
    """The game of `seed` played by `setting` until it reaches every boundary or ends: the
    position at each boundary reached, by the boundary's name."""
    assert _solver is not None
    game, found = engine.Game.new(seed), {}
    waiting: list[Boundary] = list(BOUNDARIES)
    while waiting and not game.over:
        if game.awaiting_choice:
            game.keep_playing()
        if reached(game.rows, waiting[0]):
            found[waiting.pop(0).name] = {"rows": [list(row) for row in game.rows],
                                          "score": game.score, "moves": game.moves}
            continue
        game.move(_solver.choose(game.rows, setting))
    return {"seed": seed, **found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=50, help="games that reach 16384")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--output", type=Path, default=STARTS_FILE)
    args = parser.parse_args()
    games = []
    with multiprocessing.Pool(args.workers, initializer=start_worker) as pool:
        # Seeds enough for every game but one in ten to fall short of 16384 (2 in 50 did).
        for game in pool.imap(boundary_positions, range(1, args.boards + args.boards // 10 + 3)):
            print(json.dumps({"seed": game["seed"],
                              **{name: game[name]["score"] for name in game if name != "seed"}}),
                  flush=True)
            games.append(game)
            if sum(BOUNDARIES[0].name in game for game in games) >= args.boards:
                break
        pool.terminate()
    reached = [game for game in games if BOUNDARIES[0].name in game][:args.boards]
    lines = ",\n".join(json.dumps(game) for game in reached)  # a game a line
    args.output.write_text(f'{{"setting": "fast", "games": [\n{lines}\n]}}\n')
    print(f"wrote {args.output}: {len(reached)} games, seeds {reached[0]['seed']}-"
          f"{reached[-1]['seed']}")


if __name__ == "__main__":
    main()
