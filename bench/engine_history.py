"""What a game's history costs: stored bytes, undo, replay, loading, and a walk over every move.

    python -m bench.engine_history              # the stored 20,000-move game (harness/long_game.py)
    python -m bench.engine_history --every 1000 # the same with another checkpoint spacing

Figures are CPU time of this process (time.process_time) per call, over many calls at move
numbers spread across whole checkpoint intervals, so the slowest phase is always included:
- bytes of the game's saved form as the store holds it (`Game.to_saved()` in compact JSON, and
  in msgpack), for the first 500 moves and for all 20,000;
- `undo()` on a game loaded at each of those move numbers (the load is not timed), and a whole
  request that undoes: load the game's text, undo, write it back;
- `Game.replay` of a position in the middle of the game;
- `Game.from_saved` of the stored text, which a request pays on every move, and
  `game.to_saved()` written as text, which it pays to save;
- `History.walk` over all the moves, against replaying them from the start in the Game loop.
"""

import argparse
import json
import statistics
import time
from pathlib import Path

import msgspec

from engine import Game
from engine import history as history_module
from harness import long_game


def cpu_ms(call, *args):
    """(milliseconds of CPU the call took, its result)."""
    start = time.process_time()
    result = call(*args)
    return (time.process_time() - start) * 1000, result


def stored_bytes(game):
    """(compact JSON bytes, msgpack bytes) of the game's saved form."""
    stored = game.to_saved()
    return len(text(game)), len(msgspec.msgpack.encode(stored))


def text(game):
    """The game's saved form as the store writes it."""
    return json.dumps(game.to_saved(), separators=(",", ":"))


def spread(last, count):
    """`count` move numbers spread evenly over the two checkpoint intervals ending at `last`."""
    first = max(1, last - 2 * history_module.CHECKPOINT_EVERY)
    return [first + (last - first) * index // (count - 1) for index in range(count)]


def summary(times):
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    median = statistics.median(ordered)
    return f"p50 {median:7.2f} ms   p99 {p99:7.2f} ms   max {ordered[-1]:7.2f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300, help="timed calls per measure")
    parser.add_argument("--game", type=Path, default=long_game.STORED)
    parser.add_argument("--every", type=int,
                        help="moves between checkpoints (default: the engine's)")
    options = parser.parse_args()
    samples = options.samples
    if options.every:
        history_module.CHECKPOINT_EVERY = options.every  # read when a game starts recording

    loading_ms, game = cpu_ms(long_game.load, options.game)  # play every move from the start
    history = game.history
    count = len(history)
    saved = {}  # move number -> the game's text as a request would find it
    for moves in spread(count, samples):
        saved[moves] = text(Game.replay(history, moves))
    print(f"game: {count:,} moves, largest tile {max(map(max, game.rows))}, score {game.score:,}; "
          f"a checkpoint every {history_module.CHECKPOINT_EVERY} moves")
    print(f"playing all {count:,} moves from the start through Game: {loading_ms:.0f} ms")

    print("\nstored bytes (the saved game)       compact JSON   msgpack")
    for moves in (500, count):
        json_bytes, msgpack_bytes = stored_bytes(Game.replay(history, moves))
        print(f"  after {moves:>6,} moves {'':16}{json_bytes:>10,}{msgpack_bytes:>10,}")

    undo_times, request_times = [], []
    for stored in saved.values():
        loaded = Game.from_saved(json.loads(stored))
        undo_times.append(cpu_ms(loaded.undo)[0])

        def request():
            game = Game.from_saved(json.loads(stored))
            game.undo()
            return text(game)

        request_times.append(cpu_ms(request)[0])
    print(f"\nundo() at {samples} move numbers from {min(saved):,} to {max(saved):,}")
    print(f"  undo alone                          {summary(undo_times)}")
    print(f"  load, undo, save (a whole request)  {summary(request_times)}")

    middle = spread(count // 2, samples)
    replay_times = [cpu_ms(Game.replay, history, moves)[0] for moves in middle]
    print(f"\nGame.replay(history, n), n from {middle[0]:,} to {middle[-1]:,}")
    print(f"  {'':36}{summary(replay_times)}")

    stored = saved[max(saved)]
    load_times = [cpu_ms(lambda: Game.from_saved(json.loads(stored)))[0] for _ in range(samples)]
    save_times = [cpu_ms(text, game)[0] for _ in range(samples)]
    print(f"\nat move {max(saved):,}")
    print(f"  Game.from_saved of the text         {summary(load_times)}")
    print(f"  game.to_saved() as text             {summary(save_times)}")

    walk_ms, steps = cpu_ms(lambda: sum(1 for _ in history.walk()))
    print(f"\nwalk over all {steps:,} moves: {walk_ms:.0f} ms "
          f"({walk_ms * 1000 / steps:.1f} us a move)")


if __name__ == "__main__":
    main()
