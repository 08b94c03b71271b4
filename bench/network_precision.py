"""Would 16-bit weights play differently? The share of one-ply moves they change.

    python -m bench.network_precision --checkpoint ~/.cache/game2048-solver/ntuple-training/checkpoint.npz
    python -m bench.network_precision --weights engine/solver/weights/ntuple.npz --games 200

Plays --games games greedily one move ahead with the float32 weights (seeded), and on every
position those games went through asks which move the same weights in whole points as int16
would pick (weights past its range held at its edge), as the compact weights file keeps them.
The shipped file may be compact only if they change fewer than 0.5% of the moves.
"""

import argparse
from pathlib import Path

import numpy as np
from numba import njit

from engine.solver import weights_file
from engine.solver.ntuple import board_value
from training.learning import moved, row_tables, with_spawn
from training.trainer import (
    DEFAULT_CHECKPOINT, Schedule, load_checkpoint, load_weights_file,
)

LIMIT = 0.005


@njit(nogil=True, cache=True)
def best_direction(board, weights, placements, late_top, slides, points):
    """The move one look-ahead picks (the first of equal ones), valuing boards as the solver
    does (engine.solver.ntuple.board_value, float32 or int16 weights alike);
    -1 when none is legal."""
    best_value, best = -np.inf, -1
    for direction in range(4):
        after, gained = moved(board, direction, slides, points)
        if after != board:
            value = gained + board_value(after, weights, placements, late_top)
            if value > best_value:
                best_value, best = value, direction
    return best


@njit(nogil=True, cache=True)
def changed_moves(weights, other, placements, late_top, slides, points, seed, games):
    """Positions of `games` greedy games (by `weights`) and how many of them `other` would
    move differently in."""
    state = np.array([seed], dtype=np.uint64)
    positions = changed = 0
    for _ in range(games):
        board = with_spawn(with_spawn(np.uint64(0), state), state)
        while True:
            direction = best_direction(board, weights, placements, late_top, slides, points)
            if direction < 0:
                break
            positions += 1
            if best_direction(board, other, placements, late_top, slides,
                              points) != direction:
                changed += 1
            board = with_spawn(moved(board, direction, slides, points)[0], state)
    return positions, changed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT)
    parser.add_argument("--weights", type=Path, help="a weights file instead of the checkpoint")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    training = (load_weights_file(args.weights, Schedule()) if args.weights
                else load_checkpoint(args.checkpoint))
    network = training.playing_network()
    weights = network.weights
    compact = weights_file.in_whole_points(weights)
    held = int((np.abs(weights) > weights_file.WHOLE_POINTS_LIMIT).sum())
    print(f"{held:,} weights past int16's range, held at its edge")
    positions, changed = changed_moves(weights, compact, network.placements, network.late_top,
                                       *row_tables(), args.seed, args.games)
    verdict = "int16 will do" if changed < LIMIT * positions else "keep float32"
    print(f"{args.games} games ({training.games:,} trained): int16 changes {changed:,} of "
          f"{positions:,} one-ply moves ({changed / positions:.3%}; limit {LIMIT:.1%}): "
          f"{verdict}")


if __name__ == "__main__":
    main()
