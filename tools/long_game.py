"""Make the stored long game the history's tests and benchmarks read: 20,000 moves, which a
random player never lasts.

    python -m tools.long_game --moves 20000 --width 400   # writes tests/data/long_game.json

Spawns follow the seed, so a player who knows the seed knows which tile every move brings. A
beam search over that known future (the `width` best boards by the solver's heuristic, one
move deeper each step) plays far longer than any real player: 20,000 moves take a few minutes
of CPU. The boards are moved the way `Game.move` moves them (the tile ledger's line plans,
then the seeded spawn on the cells the move left empty), and the moves found are played
through `Game`, which refuses any that did not match (harness/long_game.py, which reads it
back).
"""

import argparse
import json
import time
from pathlib import Path

from engine import DIRECTIONS, Game
from engine.board import COLUMN_MASK, ROW_MASK, with_tile
from engine.rng import spawn_choice
from engine.tiles import TileLedger
from harness.long_game import LETTERS, STORED, play


def board_value(line_scores: list[float], board: int) -> float:
    """The solver's heuristic: the scores of the board's four rows and four columns."""
    total = sum(line_scores[board >> shift & ROW_MASK] for shift in (0, 20, 40, 60))
    for col in range(4):
        column = board >> 5 * col & COLUMN_MASK  # cells at bits 0, 20, 40, 60 -> a row's code
        total += line_scores[
            column & 31 | column >> 15 & 31 << 5 | column >> 30 & 31 << 10 | column >> 45
        ]
    return total


def beam_directions(seed: int, moves: int, width: int) -> list[str]:
    """Up to `moves` directions for the game `Game.new(seed)`, found by beam search."""
    from engine.solver.heuristic import build_line_scores  # numba: only the search needs it

    line_scores = build_line_scores().tolist()
    start = Game.new(seed=seed).position
    spawns, board = start.spawns, start.board
    # Each beam entry: board -> (value, path), a path being (direction, previous path) or None.
    beam: dict[int, tuple[float, object]] = {board: (0.0, None)}
    for _ in range(moves):
        ledger = TileLedger([0] * 16, next_id=1)  # only its cached line plans are used
        children: dict[int, tuple[float, object]] = {}
        for board, (_, path) in beam.items():
            for direction in DIRECTIONS:
                moved = ledger.move(board, direction)
                if moved is None:
                    continue
                new_board, _, empty = moved
                index, exponent = spawn_choice(seed, spawns, len(empty))
                after = with_tile(new_board, empty[index], exponent)
                if after not in children:
                    children[after] = (board_value(line_scores, after), (direction, path))
        if not children:
            break
        spawns += 1
        best = sorted(children.items(), key=lambda item: item[1][0], reverse=True)[:width]
        beam = dict(best)
    path = max(beam.values(), key=lambda entry: entry[0])[1]
    directions = []
    while path is not None:
        direction, path = path
        directions.append(direction)
    return directions[::-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--width", type=int, default=400, help="boards kept at each step")
    parser.add_argument("--out", type=Path, default=STORED)
    options = parser.parse_args()
    started = time.process_time()
    directions = beam_directions(options.seed, options.moves, options.width)
    letters = "".join(LETTERS[direction] for direction in directions)
    game = play(options.seed, letters)
    options.out.write_text(json.dumps({"seed": options.seed, "directions": letters}) + "\n")
    print(f"{len(letters)} moves, largest tile {max(map(max, game.rows))}, score {game.score}, "
          f"{time.process_time() - started:.0f} s CPU -> {options.out}")


if __name__ == "__main__":
    main()
