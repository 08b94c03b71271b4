"""Do searches in two threads run side by side? One thread doing 2N searches against two doing N.

    python -m bench.solver_threads --searches 200 --setting fast

The positions are those of one game played by the solver from a fixed seed, so the mix of easy
and hard boards is a real one. Both runs search the same 2N positions with one Solver (two
caches); the compiled search releases the GIL, so on two free cores the two threads should take
about half the time of one. Each thread takes every other position: a game's later positions
hold more distinct tiles and are searched deeper, so split into halves the second thread had
62% of the CPU (0.38 against 0.63 s of 600 `fast` searches) and the ratio could not fall below
about 0.65. Prints wall-clock seconds of each run and their ratio, and each thread's CPU
seconds: wall time waits for a free core on a loaded machine, CPU time does not.
"""

import argparse
import threading
import time

import engine
from engine.solver import Solver


def game_positions(solver: Solver, count: int, setting: str, seed: int) -> list:
    """The first `count` positions of a game the solver plays (new games while it needs more)."""
    positions, game = [], engine.Game.new(seed)
    while len(positions) < count:
        if game.over:
            seed += 1
            game = engine.Game.new(seed)
        if game.awaiting_choice:
            game.keep_playing()
        positions.append(game.rows)
        game.move(solver.choose(game.rows, setting))
    return positions


def timed_run(solver: Solver, batches: list[list], setting: str) -> tuple[float, list[float]]:
    """Seconds for one thread per batch to search its positions, all threads started together,
    and each thread's CPU seconds."""
    cpu = [0.0] * len(batches)

    def search(number: int, batch: list) -> None:
        started = time.thread_time()
        for rows in batch:
            solver.search(rows, setting)
        cpu[number] = time.thread_time() - started

    threads = [threading.Thread(target=search, args=numbered) for numbered in enumerate(batches)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=200, help="N: searches per thread")
    parser.add_argument("--setting", default="fast")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    solver = Solver(None, max_searches=2)
    solver.warm_up()
    positions = game_positions(solver, 2 * args.searches, args.setting, args.seed)
    half = args.searches
    one, (one_cpu,) = timed_run(solver, [positions], args.setting)
    two, two_cpu = timed_run(solver, [positions[0::2], positions[1::2]], args.setting)
    print(f"setting {args.setting}, {2 * half} searches of one game's positions")
    print(f"one thread, {2 * half} searches:   {one:.3f} s ({one_cpu:.3f} s CPU)")
    print(f"two threads, {half} searches each: {two:.3f} s "
          f"({' and '.join(f'{seconds:.3f}' for seconds in two_cpu)} s CPU)")
    print(f"ratio two/one: {two / one:.2f} (target under 0.75 on two free cores); "
          f"of CPU, the busier thread's against one thread's: {max(two_cpu) / one_cpu:.2f}")


if __name__ == "__main__":
    main()
