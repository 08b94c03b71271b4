"""Train the solver's n-tuple network by temporal-difference learning over self-played games.

    python bench/train_ntuple.py --games 200000 --seed 1
    python bench/train_ntuple.py --games 300000 --learning-rate 0.1   # resume, finer steps
    python bench/train_ntuple.py --export engine/solver/weights/ntuple.npz

Each game is played greedily: from every position the move whose points plus the network's
value of the board after it is largest. When the game ends, the boards after each move are
updated from the last to the first (TD(0) on afterstates, backward): each value moves toward
the points of the next move plus the value after it, and the board after the last move toward 0.
Games run in chunks; chunk k draws its tiles from seed + k, and a checkpoint is written after
every chunk, so a stopped run resumes where it was and gives the same network as an unbroken
one. Each chunk logs its games' mean score and the share reaching 2048, 8192 and 16384.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout
from engine.rng import SPAWN_ODDS  # noqa: E402
from engine.solver import weights_file  # noqa: E402
from engine.solver.board import (  # noqa: E402
    CELL_BITS, CELL_MASK, build_slide_tables, slide, slide_points, transpose, with_tile,
)
from engine.solver.ntuple import Network, adjust, empty_network, network_value  # noqa: E402
from engine.solver.locations import default_cache_dir  # noqa: E402

FOUR_PROBABILITY = dict(SPAWN_ODDS)[2]
LONGEST_GAME = 200_000  # moves; a game to 131072 takes about 65,000
DEFAULT_CHECKPOINT = default_cache_dir() / "ntuple-training" / "checkpoint.npz"


@njit(nogil=True, cache=True)
def _spawn(rows, columns):
    """The board with a random tile (2 or 4) in a random empty cell."""
    empty = 0
    for cell in range(16):
        if (rows[cell // 4] >> (CELL_BITS * (cell % 4))) & CELL_MASK == 0:
            empty += 1
    pick = np.random.randint(empty)
    exponent = 2 if np.random.random() < FOUR_PROBABILITY else 1
    for cell in range(16):
        row, column = cell // 4, cell % 4
        if (rows[row] >> (CELL_BITS * column)) & CELL_MASK == 0:
            if pick == 0:
                return with_tile(rows, row, column, exponent), with_tile(columns, column, row,
                                                                         exponent)
            pick -= 1
    return rows, columns


@njit(nogil=True, cache=True)
def _play_and_learn(games, seed, learning_rate, weights, placements, toward_first, toward_last,
                    points, path, rewards, scores, top_exponents):
    """Play `games` games from `seed`, learning after each; fill scores and top exponents.

    Returns the number of moves played.
    """
    np.random.seed(seed)
    features = placements.shape[0] * placements.shape[1]
    moves = 0
    for game in range(games):
        rows = (0, 0, 0, 0)
        rows, columns = _spawn(rows, rows)
        rows, columns = _spawn(rows, columns)
        length, score = 0, 0
        while length < path.shape[0]:
            best_value, best_points = -np.inf, 0
            best_rows, best_columns = rows, columns
            for direction in range(4):
                moved_rows, moved_columns = slide(rows, columns, direction, toward_first,
                                                  toward_last)
                if moved_rows == rows:
                    continue
                gained = slide_points(rows, columns, direction, points)
                value = gained + network_value(moved_rows, weights, placements)
                if value > best_value:
                    best_value, best_points = value, gained
                    best_rows, best_columns = moved_rows, moved_columns
            if best_value == -np.inf:
                break
            for line in range(4):
                path[length, line] = best_rows[line]
            rewards[length] = best_points
            length += 1
            score += best_points
            rows, columns = _spawn(best_rows, best_columns)
        moves += length

        target = 0.0
        for step in range(length - 1, -1, -1):
            after = (path[step, 0], path[step, 1], path[step, 2], path[step, 3])
            error = target - network_value(after, weights, placements)
            adjust(after, weights, placements, learning_rate * error / features)
            target = rewards[step] + network_value(after, weights, placements)

        top = 0
        for line in range(4):
            for cell in range(4):
                top = max(top, (rows[line] >> (CELL_BITS * cell)) & CELL_MASK)
        scores[game], top_exponents[game] = score, top
    return moves


def _load_checkpoint(path: Path, seed: int) -> tuple[Network, int]:
    """The network and games played so far, or a new network when there is no checkpoint."""
    if not path.exists():
        return empty_network(), 0
    with np.load(path) as stored:
        if int(stored["seed"]) != seed:
            raise SystemExit(f"{path} was trained from seed {int(stored['seed'])}, not {seed}")
        return Network(stored["shapes"], stored["weights"].copy()), int(stored["games"])


def _save_checkpoint(path: Path, network: Network, games: int, seed: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial.npz")
    np.savez(partial, shapes=network.shapes, weights=network.weights, games=games, seed=seed)
    os.replace(partial, path)


def train(checkpoint: Path, total_games: int, seed: int, learning_rate: float,
          chunk: int) -> Network:
    """Play and learn until `total_games` games are done, resuming from the checkpoint."""
    network, done = _load_checkpoint(checkpoint, seed)
    toward_first, toward_last, points = build_slide_tables()
    path = np.zeros((LONGEST_GAME, 4), dtype=np.int64)
    rewards = np.zeros(LONGEST_GAME, dtype=np.int64)
    progress = tqdm(total=total_games, initial=done, unit="game", smoothing=0.05)
    while done < total_games:
        games = min(chunk, total_games - done)
        scores = np.zeros(games, dtype=np.int64)
        tops = np.zeros(games, dtype=np.int64)
        started = time.perf_counter()
        moves = _play_and_learn(games, seed + done // chunk, learning_rate, network.weights,
                                network.placements, toward_first, toward_last, points, path,
                                rewards, scores, tops)
        done += games
        _save_checkpoint(checkpoint, network, done, seed)
        progress.update(games)
        shares = "  ".join(f"{1 << exponent}: {np.mean(tops >= exponent):5.1%}"
                           for exponent in (11, 13, 14))
        progress.write(f"games {done:>8}  mean score {scores.mean():>9.0f}  {shares}  "
                       f"{moves / (time.perf_counter() - started):,.0f} moves/s  "
                       f"rate {learning_rate}")
    progress.close()
    return network


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=0, help="train until this many games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--learning-rate", type=float, default=0.5,
                        help="share of a value's error corrected by one update")
    parser.add_argument("--chunk", type=int, default=1000, help="games between checkpoints")
    parser.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT)
    parser.add_argument("--export", type=Path, help="write the weights file here when done")
    args = parser.parse_args()
    network = train(args.checkpoint, args.games, args.seed, args.learning_rate, args.chunk)
    if args.export:
        weights_file.save(args.export, network)
        print(f"wrote {args.export} ({args.export.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
