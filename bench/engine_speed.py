"""How fast the engine plays, side by side with a plain list-of-lists 2048 in the same run.

    python -m bench.engine_speed --seconds 2
    python -m bench.engine_speed --against f18a0fe   # also the Game loop of an older engine

Measures moves per second of (a) whole random games played through `engine.Game`
(legal_moves, then move, which includes the spawn), (b) the raw packed-board move functions,
and the same two things done by the straightforward implementation below. With `--against`,
the engine package as it was at that git revision is imported beside the current one and its
Game loop measured in the same slices, to show what a change costs. Times are CPU seconds of
this process (time.process_time), so other work on the machine disturbs them less.
"""

import argparse
import importlib.util
import random
import sys
import tempfile
import time
from importlib.machinery import PathFinder
from pathlib import Path

from engine import DIRECTIONS, Game
from engine.board import MOVES, pack
from harness.checkout import unpacked

# --- the baseline: a grid as a list of four lists of values -------------------------------------


def plain_move(grid, direction):
    """(new grid, points) after pushing `direction`, line by line on lists."""
    vertical = direction in ("up", "down")
    lines = [list(column) for column in zip(*grid)] if vertical else [list(row) for row in grid]
    toward_end = direction in ("right", "down")
    points = 0
    new_lines = []
    for line in lines:
        tiles = [value for value in (reversed(line) if toward_end else line) if value]
        merged = []
        index = 0
        while index < len(tiles):
            if index + 1 < len(tiles) and tiles[index] == tiles[index + 1]:
                merged.append(2 * tiles[index])
                points += 2 * tiles[index]
                index += 2
            else:
                merged.append(tiles[index])
                index += 1
        merged += [0] * (4 - len(merged))
        new_lines.append(merged[::-1] if toward_end else merged)
    new_grid = [list(row) for row in zip(*new_lines)] if vertical else new_lines
    return new_grid, points


def plain_spawn(grid, generator):
    empty = [(r, c) for r in range(4) for c in range(4) if not grid[r][c]]
    r, c = generator.choice(empty)
    grid[r][c] = 4 if generator.random() < 0.1 else 2


def plain_legal_moves(grid):
    return [direction for direction in DIRECTIONS if plain_move(grid, direction)[0] != grid]


def plain_game_moves(generator, deadline):
    """Play whole random games on lists until the deadline, the way a random player uses
    Game (legal moves, then the move, then the spawn); the number of moves made."""
    moves = 0
    while time.process_time() < deadline:
        grid = [[0] * 4 for _ in range(4)]
        score = 0
        plain_spawn(grid, generator)
        plain_spawn(grid, generator)
        while True:
            legal = plain_legal_moves(grid)
            if not legal:
                break
            grid, points = plain_move(grid, generator.choice(legal))
            score += points
            plain_spawn(grid, generator)
            moves += 1
    return moves


# --- the engine ---------------------------------------------------------------------------------


def engine_game_moves(generator, deadline, game_class=Game):
    """Play whole random games through Game until the deadline; the number of moves made."""
    Game = game_class  # noqa: N806 (the class under test, this engine's or an older one)
    moves = 0
    seed = 0
    while time.process_time() < deadline:
        game = Game.new(seed=seed)
        seed += 1
        while True:
            if game.awaiting_choice:
                game.keep_playing()
            legal = game.legal_moves()
            if not legal:
                break
            game.move(generator.choice(legal))
            moves += 1
    return moves


def sample_boards(count):
    """Boards met in random games, as value rows."""
    generator = random.Random(1)
    boards = []
    seed = 0
    while len(boards) < count:
        game = Game.new(seed=seed)
        seed += 1
        while game.legal_moves() and len(boards) < count:
            game.move(generator.choice(game.legal_moves()))
            boards.append(game.rows)
    return boards


def packed_moves_per_second(boards, seconds):
    """Push every packed board every way with the raw move functions, for about `seconds`."""
    work = [(MOVES[direction], board) for board in boards for direction in DIRECTIONS]
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for move, board in work:
            move(board)
        done += len(work)
    return done / (time.process_time() - start)


def plain_moves_per_second(grids, seconds):
    """Push every list grid every way with the baseline, for about `seconds`."""
    work = [(grid, direction) for grid in grids for direction in DIRECTIONS]
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for grid, direction in work:
            plain_move(grid, direction)
        done += len(work)
    return done / (time.process_time() - start)


def game_class_at(revision):
    """The Game class of the engine package as it was at a git revision, imported under its
    own name beside the current engine (whose modules are put back afterwards): the older
    package is found in its own folder, and its modules import one another from there."""
    current = {name: module for name, module in sys.modules.items() if _is_engine(name)}
    with tempfile.TemporaryDirectory(prefix="engine-at-") as folder:
        spec = PathFinder.find_spec("engine", [str(unpacked(revision, Path(folder)))])
        for name in current:
            del sys.modules[name]
        try:
            sys.modules["engine"] = package = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(package)
            older = package.Game
        finally:
            for name in [name for name in sys.modules if _is_engine(name)]:
                del sys.modules[name]
            sys.modules.update(current)
    return older


def _is_engine(module_name):
    return module_name == "engine" or module_name.startswith("engine.")


def timed(play, seconds):
    generator = random.Random(7)
    start = time.process_time()
    moves = play(generator, start + seconds)
    return moves / (time.process_time() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="total CPU seconds to measure")
    parser.add_argument("--rounds", type=int, default=4, help="alternations of engine and baseline")
    parser.add_argument("--against", metavar="REVISION",
                        help="also measure the Game loop of the engine at this git revision")
    options = parser.parse_args()
    older = game_class_at(options.against) if options.against else None
    slice_seconds = options.seconds / ((5 if older else 4) * options.rounds)

    boards = sample_boards(2000)
    packed = [pack([[value.bit_length() - 1 if value else 0 for value in row] for row in board])
              for board in boards]
    grids = [[list(row) for row in board] for board in boards]
    timed(engine_game_moves, 0.5)  # fill the lazily cached tables first
    packed_moves_per_second(packed, 0.2)
    if older:
        timed(lambda generator, deadline: engine_game_moves(generator, deadline, older), 0.5)

    # Engine and baseline alternate in short slices; each keeps its best slice, so a busy
    # machine slows both sides alike instead of whichever ran at the wrong moment.
    measures = {
        "random games, Game": lambda: timed(engine_game_moves, slice_seconds),
        "random games, lists": lambda: timed(plain_game_moves, slice_seconds),
        "raw move, packed int": lambda: packed_moves_per_second(packed, slice_seconds),
        "raw move, lists": lambda: plain_moves_per_second(grids, slice_seconds),
    }
    if older:
        measures[f"random games, {options.against}"] = lambda: timed(
            lambda generator, deadline: engine_game_moves(generator, deadline, older),
            slice_seconds,
        )
    best = dict.fromkeys(measures, 0.0)
    for _ in range(options.rounds):
        for name, measure in measures.items():
            best[name] = max(best[name], measure())

    print(f"{'measure':<22}{'moves/s':>12}   {'baseline':<21}{'moves/s':>10}{'ratio':>8}{'target':>8}")
    for name, base_name, target in (
        ("random games, Game", "random games, lists", 4.0),
        ("raw move, packed int", "raw move, lists", 5.0),
    ):
        ratio = best[name] / best[base_name]
        verdict = "ok" if ratio >= target else "BELOW"
        print(f"{name:<22}{best[name]:>12,.0f}   {base_name:<21}{best[base_name]:>10,.0f}"
              f"{ratio:>7.1f}x{target:>5.0f}x {verdict}")
    if older:
        name = f"random games, {options.against}"
        print(f"{name:<22}{best[name]:>12,.0f}   this engine's Game loop runs at "
              f"{best['random games, Game'] / best[name]:.3f} times its speed")


if __name__ == "__main__":
    main()
