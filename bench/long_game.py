"""A very long game for the history bench: 20,000 moves, which a random player never lasts.

    python bench/long_game.py --moves 20000 --width 400   # writes bench/long_game.json

Spawns follow the seed, so a player who knows the seed knows which tile every move brings. A
beam search over that known future (the `width` best boards by the solver's heuristic, one
move deeper each step) plays far longer than any real player: 20,000 moves take a few minutes
of CPU. The boards are moved the way `Game.move` moves them (the tile ledger's line plans,
then the seeded spawn on the cells the move left empty), and the moves found are played
through `Game`, which refuses any that did not match. The result is stored as the seed and a
letter per move, so it does not depend on the history's saved form.
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout
from engine import DIRECTIONS, Game  # noqa: E402
from engine.board import COLUMN_MASK, ROW_MASK, pack, with_tile  # noqa: E402
from engine.rng import spawn_choice  # noqa: E402
from engine.tiles import TileLedger  # noqa: E402

STORED = Path(__file__).with_suffix(".json")
LETTERS = {direction: direction[0] for direction in DIRECTIONS}


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
    start = Game.new(seed=seed).to_dict()
    spawns = start["spawns"]
    board = pack([[value.bit_length() - 1 if value else 0 for value in row]
                  for row in start["rows"]])
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


def play(seed: int, letters: str) -> Game:
    """The game `Game.new(seed)` after the moves spelled by `letters` (u, d, l, r)."""
    by_letter = {letter: direction for direction, letter in LETTERS.items()}
    game = Game.new(seed=seed)
    for number, letter in enumerate(letters, 1):
        game.keep_playing()
        if not game.move(by_letter[letter]):
            raise ValueError(f"move {number} of the stored long game is not legal")
    return game


def load(path: Path = STORED) -> Game:
    """The stored long game, played."""
    stored = json.loads(path.read_text())
    return play(stored["seed"], stored["directions"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
