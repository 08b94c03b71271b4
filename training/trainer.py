"""Train the solver's n-tuple network by self-play, on every core, resumably.

    make train                                 # 1,000,000 games more, under nice -n 19
    python -m training.trainer --games 200000    # 200,000 more, from the checkpoint or weights
    python -m training.trainer --from-scratch --games 100000 --checkpoint /tmp/t.npz
    python -m training.trainer --export engine/solver/weights/ntuple.npz --compact

Training runs in rounds. In a round each worker (a thread; the compiled games release the GIL)
starts from the same weights and plays games with its own seed (the run's seed, the round and
the worker) until it has played --round-moves moves; the round's weights are then the mean of
the workers' (so are TC's accumulators). A round therefore depends only on the weights it
starts from and its number: a checkpoint after any round resumes exactly as if the run had
not stopped. Checkpoints (uncompressed .npz, written to a temporary name and renamed) are
written when --checkpoint-seconds have passed since the last one, and at the end. They keep the
run's options (run_options.py), so `--checkpoint PATH --games N` alone goes on with the run.

Greedy self-play seldom gets far: at a million games one game in 20 reaches 16384, so the
moves from 8192 to 16384, where the solver's games are won or lost, and the second stage would
learn from few boards. The first board holding --restart-tile (8192) of each fresh game is
kept (the last STARTS of them, in the checkpoint), and a --restart-share (half) of the games
start from one of them instead of an empty board (a restart, as in Jaskowski's carousel
shaping, from one stage only). Runs before the fourth restarted a quarter of the games from
16384.

The first --td-games games use TD(0) with a fixed rate and one stage; from there on the second
stage (boards holding 16384) starts as a copy of the first, and every weight learns at its own
temporal-coherence rate (learning.py), towards lambda-returns (--trace; TD(0) targets until the
ninth run's second part, which measured lambda 0.5 against them). A run resumes from the
checkpoint, or, when the shipped weights file has trained more games than the default checkpoint
(one not named with --checkpoint), from that file. The file keeps the weights and counters only,
not TC's sums, and sums of zero would let every weight learn at the full rate at once (the shipped
network's greedy games went from 49% reaching 16384 to 18% within 15,000 games). So a run going on
from the file first plays --calibration-games games with the weights held still, its errors filling
the sums. Sums over those games alone would still let the weights learn several times faster than
sums over the file's whole TC history (errors that cancel out add up to the square root of their
count, their sizes in proportion), so the sums are then scaled to that history's length, and
learning goes on. Every 10,000 fresh games a line gives their mean score and the share reaching
2048 .. 32768; restarted games, which start half-way, are summed up apart on the same line (how
many since the last line, their mean score from the restart, the share reaching 16384 and 32768),
so a run restarting from 16384 shows how its second stage plays.
"""

from __future__ import annotations

import argparse
import math
import os
import time
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np
from tqdm import tqdm

from engine.solver import weights_file
from engine.solver.locations import default_cache_dir
from engine.solver.ntuple import (
    LATE_SHAPES, MAX_CELL_EXPONENT, MOST_STAGES, READ_DOWN_TOP, SHAPES, Network, empty_network,
    placements,
)
from training import probes
from training.learning import ERRORS, MAGNITUDES, WEIGHT, play_round, row_tables
from training.run_options import (
    Asked, Layout, Schedule, option_name, settle, settle_workers, shown,
)

LONGEST_GAME = 200_000  # moves; a game to 32768 takes about 16,000
LOG_EVERY = 10_000  # games
LOGGED_TILES = (11, 12, 13, 14, 15)  # 2048 .. 32768
RESTART_LOGGED_TILES = (14, 15)  # 16384, 32768
DEFAULT_CHECKPOINT = default_cache_dir() / "ntuple-training" / "checkpoint.npz"
STARTS = 2_000  # late boards kept to restart games from
SCORE, TOP, RESTARTED = range(3)  # the columns of a game's outcome


@dataclass
class Training:
    """Everything a run needs to go on exactly where it stopped.

    `table` (stages, shapes, weights a shape, columns) holds the network's weights in column
    WEIGHT and, once TC has started, their sums of errors and of magnitudes beside them;
    `late_top` says how its late stages read a board and `first_stages` which stages read each
    shape (engine.solver.ntuple; empty: every stage reads every shape)."""

    seed: int
    shapes: np.ndarray
    table: np.ndarray
    rounds: int = 0
    games: int = 0
    moves: int = 0
    unlogged_scores: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    unlogged_tops: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    # Restarted games since the last log line: a row (score from the restart, top) each.
    unlogged_restarts: np.ndarray = field(
        default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    # Late boards restart games from: the last STARTS found, kept as a ring (`found` in all),
    # each the first board of its game past `starts_boundary` (Schedule.restart_tile).
    starts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))
    found: int = 0
    starts_boundary: tuple[int, int] = (13, 0)
    # TC learns from this many games on; before, play only fills its sums, which are then
    # scaled, each stage's shape by its own, to a history `sums_scale` (stages, shapes) times
    # as long (see the module).
    learns_from: int = 0
    sums_scale: np.ndarray = field(default_factory=lambda: np.ones(0))
    late_top: int = MAX_CELL_EXPONENT
    first_stages: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    # The options the run goes on with; None from a checkpoint written before they were kept,
    # until `resume` settles them.
    schedule: Schedule | None = None
    workers: int = 0  # the workers its rounds were played on (0: not known yet)

    def __post_init__(self) -> None:
        self.sums_scale = scales_of(self.sums_scale, self.table.shape[:2])
        if not np.size(self.first_stages):
            self.first_stages = np.zeros(len(self.shapes), dtype=np.int64)

    @classmethod
    def of(cls, seed: int, network: Network, coherent: bool = False, **counters: object
           ) -> Training:
        """A run over `network`'s weights (copied), with TC's sums at 0 if `coherent`."""
        table = np.zeros((*network.weights.shape, 3 if coherent else 1), dtype=np.float32)
        table[..., WEIGHT] = network.weights
        return cls(seed, network.shapes, table, late_top=network.late_top,
                   first_stages=network.first_stages, **counters)

    def restart_from(self, boundary: tuple[int, int]) -> None:
        """Restart games from boards past `boundary`: the boards kept past another are let go."""
        if boundary != self.starts_boundary:
            self.starts, self.found = np.zeros(0, dtype=np.uint64), 0
            self.starts_boundary = boundary

    def keep_starts(self, boards: np.ndarray) -> None:
        """Add late boards to the ring, the oldest going when it is full."""
        for board in boards:
            if self.starts.shape[0] < STARTS:
                self.starts = np.append(self.starts, np.uint64(board))
            else:
                self.starts[self.found % STARTS] = board
            self.found += 1

    @property
    def coherent(self) -> bool:
        return self.table.shape[-1] == 3

    @property
    def calibrating(self) -> bool:
        """Whether play only fills TC's sums, the weights held still."""
        return self.games < self.learns_from

    def lengthen_sums(self) -> None:
        """Scale the sums calibration filled to a history `sums_scale` times as long, each
        stage's shape by its own: sizes in proportion, the sum of errors by its square root (as
        errors that cancel out grow)."""
        for (stage, shape), scale in np.ndenumerate(self.sums_scale):
            if scale != 1.0:
                self.table[stage, shape, :, ERRORS] *= np.float32(np.sqrt(scale))
                self.table[stage, shape, :, MAGNITUDES] *= np.float32(scale)
        self.sums_scale[:] = 1.0

    def promote(self, stages: int, late_top: int) -> list[int]:
        """Give the network `stages` stages read as `late_top` says, by weight promotion: a
        new stage starts as a copy of the one before it, and when the late stages read boards
        another way, each starts again as a copy of the first (weights learned on other
        boards mean nothing read this way). Promoted stages' TC sums start at 0 and are not
        scaled. Returns the stages promoted."""
        kept = self.table.shape[0] if late_top == self.late_top else 1
        promoted = list(range(kept, stages))
        if not promoted and stages == self.table.shape[0]:
            return []
        table = np.zeros((stages, *self.table.shape[1:]), dtype=np.float32)
        table[:min(kept, stages)] = self.table[:min(kept, stages)]
        for stage in promoted:
            table[stage, ..., WEIGHT] = table[stage - 1, ..., WEIGHT]
        scale = np.ones((stages, self.table.shape[1]))
        scale[:min(kept, stages)] = self.sums_scale[:min(kept, stages)]
        self.table, self.sums_scale, self.late_top = table, scale, late_top
        return promoted

    @property
    def late_shapes(self) -> bool:
        """Whether the late stages read shapes of their own besides the first stage's."""
        return bool((self.first_stages > 0).any())

    def add_late_shapes(self, shapes: tuple[tuple[int, ...], ...] = LATE_SHAPES) -> bool:
        """Give the late stages `shapes` to read besides the first stage's, their weights and
        TC sums at 0 (filled, if the run calibrates, but not scaled to a history they do not
        have), so that the network values every board as before. Returns whether they were
        added (False: the late stages have shapes of their own already)."""
        if self.late_shapes:
            return False
        added = np.zeros((self.table.shape[0], len(shapes), *self.table.shape[2:]),
                         dtype=np.float32)
        self.table = np.concatenate([self.table, added], axis=1)
        self.sums_scale = np.concatenate(
            [self.sums_scale, np.ones((self.table.shape[0], len(shapes)))], axis=1)
        self.shapes = np.concatenate([self.shapes, np.array(shapes, dtype=np.int64)])
        self.first_stages = np.concatenate([self.first_stages,
                                            np.ones(len(shapes), dtype=np.int64)])
        return True

    def trained_table(self) -> np.ndarray:
        """The part of the table a round changes: the first stage only until TC starts."""
        return self.table if self.coherent else self.table[:1]

    def playing_network(self) -> Network:
        """The network to play with: until TC starts, the late stages are the first's copies."""
        weights = self.table[..., WEIGHT].copy()
        if not self.coherent:
            weights[1:] = weights[:1]
        return Network(self.shapes, weights, self.late_top, self.first_stages)

    def hold_weights(self) -> None:
        """Hold every weight within what the compact weights file keeps, as learning does (a
        checkpoint from before the trainer held them may have some past it)."""
        weights = self.table[..., WEIGHT]
        limit = weights_file.WHOLE_POINTS_LIMIT
        np.clip(weights, -limit, limit, out=weights)

    def start_coherence(self) -> None:
        """TC's sums start at 0 beside the weights; the late stages start as copies of the
        first."""
        table = np.zeros((*self.table.shape[:-1], 3), dtype=np.float32)
        table[..., WEIGHT] = self.table[..., WEIGHT]
        table[1:, ..., WEIGHT] = table[:1, ..., WEIGHT]
        self.table = table


def scales_of(kept: np.ndarray | float, layout: tuple[int, int]) -> np.ndarray:
    """TC's sums' scales for a network of `layout` (stages, shapes), from those a run keeps:
    one for each stage's shape, or (checkpoints from before late shapes) one for each stage, or
    (from before stages) one for all; none kept is 1."""
    scales = np.asarray(kept, dtype=np.float64) if np.size(kept) else np.ones(())
    if scales.ndim == 1:
        scales = scales[:, np.newaxis]
    return np.broadcast_to(scales, layout).copy()


def save_checkpoint(path: Path, training: Training) -> None:
    """Write the checkpoint under a temporary name, then rename it (atomic)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial.npz")
    columns = {"weights": training.table[..., WEIGHT]}
    if training.coherent:
        columns.update(errors=training.table[..., ERRORS],
                       magnitudes=training.table[..., MAGNITUDES])
    np.savez(partial, seed=training.seed, rounds=training.rounds, games=training.games,
             moves=training.moves, shapes=training.shapes,
             unlogged_scores=training.unlogged_scores, unlogged_tops=training.unlogged_tops,
             unlogged_restarts=training.unlogged_restarts,
             starts=training.starts, found=training.found,
             starts_boundary=training.starts_boundary, learns_from=training.learns_from,
             sums_scale=training.sums_scale, late_top=training.late_top,
             first_stages=training.first_stages, workers=training.workers, **columns,
             **({} if training.schedule is None else {"options": training.schedule.to_json()}))
    os.replace(partial, path)


def load_checkpoint(path: Path) -> Training:
    """The run saved in a checkpoint; a damaged one stops the trainer with a clear message."""
    try:
        return _read_checkpoint(path)
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise SystemExit(f"cannot read the checkpoint {path}: {error}") from error


def _read_checkpoint(path: Path) -> Training:
    with np.load(path) as stored:
        coherent = "errors" in stored
        late_top = int(stored["late_top"]) if "late_top" in stored else MAX_CELL_EXPONENT
        # every stage read every shape before checkpoints kept which read which
        first_stages = stored["first_stages"] if "first_stages" in stored else None
        training = Training.of(int(stored["seed"]),
                               Network(stored["shapes"], stored["weights"], late_top,
                                       first_stages),
                               coherent, rounds=int(stored["rounds"]),
                               games=int(stored["games"]), moves=int(stored["moves"]),
                               unlogged_scores=stored["unlogged_scores"],
                               unlogged_tops=stored["unlogged_tops"])
        if coherent:
            training.table[..., ERRORS] = stored["errors"]
            training.table[..., MAGNITUDES] = stored["magnitudes"]
        if "starts" in stored:  # checkpoints from before restarts have none
            training.starts, training.found = stored["starts"], int(stored["found"])
        if "unlogged_restarts" in stored:  # nor a log of restarted games
            training.unlogged_restarts = stored["unlogged_restarts"]
        if "learns_from" in stored:  # nor do those from before calibration
            training.learns_from = int(stored["learns_from"])
            training.sums_scale = scales_of(stored["sums_scale"], training.table.shape[:2])
        if "starts_boundary" in stored:  # all kept boards held 8192 before late restarts
            training.starts_boundary = tuple(int(part) for part in stored["starts_boundary"])
        if "options" in stored:  # nor their options before these
            training.schedule = Schedule.from_json(str(stored["options"]))
        if "workers" in stored:  # nor the workers' count before that
            training.workers = int(stored["workers"])
    return training


def load_weights_file(path: Path, schedule: Schedule) -> Training:
    """A run going on from a weights file: its weights as float32, its counters. Its stages
    differ once TC has started (before, the file's second stage is a copy of the first): TC
    then goes on, after the schedule's calibration games have filled its sums."""
    network = weights_file.load(path, unpack_dir=None)
    counters = weights_file.training_counters(path)
    weights = weights_file.as_float32(network)
    training = Training.of(counters["seed"],
                           Network(network.shapes, weights, network.late_top,
                                   network.first_stages),
                           not np.array_equal(weights[0], weights[1]),
                           rounds=counters["rounds"], games=counters["games"],
                           moves=counters["moves"], schedule=schedule)
    if training.coherent and schedule.calibration_games:
        training.learns_from = training.games + schedule.calibration_games
        history = training.games - schedule.td_games  # the games TC learned from
        training.sums_scale[:] = max(1.0, history / schedule.calibration_games)
    return training


def resume(checkpoint: Path, weights: Path, seed: int, from_scratch: bool,
           asked: Asked = Asked(), shapes: tuple[tuple[int, ...], ...] = SHAPES,
           notice: Callable[[str], None] = print, named: bool = False,
           late_shapes: tuple[tuple[int, ...], ...] = LATE_SHAPES) -> Training:
    """The checkpoint or the weights file, whichever has trained more games (or a new
    network with --from-scratch when neither exists), or the checkpoint if it exists and was
    `named` on the command line (a run of its own). From the checkpoint the run goes on with
    the options it keeps (run_options.settle); a new run, from the file or from scratch, with
    those `asked`. Then the layout asked for, if any (its promoted stages' TC sums filled for
    the schedule's calibration games before they learn), and `late_shapes` for the late stages if
    asked; games restart from boards past the schedule's boundary."""
    if from_scratch:
        if checkpoint.exists():
            raise SystemExit(f"--from-scratch, but {checkpoint} exists")
        training = Training.of(seed, empty_network(shapes), schedule=asked.schedule())
    else:
        training = load_checkpoint(checkpoint) if checkpoint.exists() else None
        further = weights.exists() and (training is None or not named and (
            weights_file.training_counters(weights)["games"] > training.games))
        if further:
            if training is not None:
                notice(f"{weights} has trained more games than {checkpoint} "
                       f"({training.games:,}): a new run from it, with the command line's "
                       f"options, will write over the checkpoint")
            training = load_weights_file(weights, asked.schedule())
        elif training is None:
            raise SystemExit(f"neither {checkpoint} nor {weights} exists (use --from-scratch)")
        else:
            training.schedule = settle(training.schedule, Layout(
                training.table.shape[0], training.late_top, training.late_shapes), asked,
                checkpoint, notice)
    stages, late_top, add_late_shapes = asked.layout
    if training.promote(stages or training.table.shape[0], late_top or training.late_top
                        ) and training.coherent:
        training.learns_from = max(training.learns_from,
                                   training.games + training.schedule.calibration_games)
    if add_late_shapes:
        training.add_late_shapes(late_shapes)
    training.restart_from(training.schedule.restart_tile)
    return training


@dataclass
class Worker:
    """One worker's buffers, and (past the first worker) its own copy of the trained table."""

    copy: np.ndarray | None
    path: np.ndarray = field(default_factory=lambda: np.zeros(LONGEST_GAME, dtype=np.uint64))
    rewards: np.ndarray = field(default_factory=lambda: np.zeros(LONGEST_GAME, np.int64))
    outcomes: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), dtype=np.int64))
    found: np.ndarray = field(default_factory=lambda: np.zeros(STARTS, dtype=np.uint64))
    cpu_seconds: float = 0.0


def round_seed(seed: int, round_number: int, worker: int) -> int:
    """The random state a worker starts a round from (splitmix64 mixes it further)."""
    return (seed * 0x100000001B3 + round_number * 0x10001 + worker) % 2**64


def learning_rate(training: Training, schedule: Schedule) -> float:
    """The round's rate: TD(0)'s until TC starts, then TC's, or none while TC's sums fill."""
    if not training.coherent:
        return schedule.rate
    return 0.0 if training.calibrating else schedule.coherence_rate


def play_worker(training: Training, worker: Worker, number: int, schedule: Schedule,
                tables: tuple) -> tuple[int, int, int]:
    """One worker's round: (games, moves, late boards found)."""
    table = training.trained_table() if worker.copy is None else worker.copy
    stages = table.shape[0]
    started = time.thread_time()
    played = play_round(table.reshape(-1, table.shape[-1]), training.coherent,
                        learning_rate(training, schedule),
                        schedule.trace if training.coherent else 0.0,
                        placements(training.shapes, training.first_stages), stages,
                        training.late_top,
                        schedule.learn_stage, *tables,
                        round_seed(training.seed, training.rounds, number),
                        schedule.round_moves, worker.path, worker.rewards, worker.outcomes,
                        training.starts, schedule.restart_share, *schedule.restart_tile,
                        worker.found)
    worker.cpu_seconds = time.thread_time() - started
    return played


def train_round(training: Training, workers: list[Worker], pool: ThreadPoolExecutor,
                schedule: Schedule, tables: tuple) -> list[float]:
    """One round on every worker, then the mean of their arrays; the late boards they found
    join the starts, in the workers' order. Returns each worker's moves per CPU second."""
    trained = training.trained_table()
    for worker in workers[1:]:
        if worker.copy is None or worker.copy.shape != trained.shape:
            worker.copy = trained.copy()
        else:
            np.copyto(worker.copy, trained)
    for worker in workers:
        if worker.outcomes.shape[0] < schedule.round_moves // 10 + 1:
            worker.outcomes = np.zeros((schedule.round_moves // 10 + 1, 3), dtype=np.int64)
    results = list(pool.map(
        lambda numbered: play_worker(training, numbered[1], numbered[0], schedule, tables),
        enumerate(workers)))
    for worker in workers[1:]:
        trained += worker.copy
    trained /= len(workers)
    # Fresh and restarted games are logged apart: a restarted one's score and tiles start
    # half-way.
    played = [worker.outcomes[:games] for worker, (games, _moves, _found) in zip(workers, results)]
    fresh = [games[games[:, RESTARTED] == 0] for games in played]
    training.unlogged_restarts = np.concatenate([
        training.unlogged_restarts, *(games[games[:, RESTARTED] == 1][:, [SCORE, TOP]]
                                      for games in played)])
    training.unlogged_scores = np.concatenate([training.unlogged_scores,
                                               *(games[:, SCORE] for games in fresh)])
    training.unlogged_tops = np.concatenate([training.unlogged_tops,
                                             *(games[:, TOP] for games in fresh)])
    for worker, (_games, _moves, found) in zip(workers, results):
        training.keep_starts(worker.found[:found])
    training.rounds += 1
    training.games += sum(games for games, _moves, _found in results)
    training.moves += sum(moves for _games, moves, _found in results)
    if (training.sums_scale != 1.0).any() and not training.calibrating:
        training.lengthen_sums()
    return [moves / max(worker.cpu_seconds, 1e-9)
            for worker, (_games, moves, _found) in zip(workers, results)]


def stage_name(training: Training) -> str:
    """How the run learns now, for the log."""
    if not training.coherent:
        return "TD(0)"
    return "TC, sums only" if training.calibrating else "TC"


def log_lines(training: Training, speeds: list[float]) -> list[str]:
    """A line for each full 10,000 fresh games not yet logged (numbered by all the games
    played by the end of their round)."""
    lines = []
    while training.unlogged_scores.shape[0] >= LOG_EVERY:
        scores, tops = training.unlogged_scores[:LOG_EVERY], training.unlogged_tops[:LOG_EVERY]
        training.unlogged_scores = training.unlogged_scores[LOG_EVERY:]
        training.unlogged_tops = training.unlogged_tops[LOG_EVERY:]
        logged = training.games
        lines.append(f"games {logged:>10,}  mean score {scores.mean():>9,.0f}  "
                     f"{tile_shares(tops, LOGGED_TILES)}  {restarts_summary(training)}"
                     f"moves {training.moves:.3e}  "
                     f"{stage_name(training)}  "
                     f"{np.mean(speeds) / 1e6:.2f} M moves/s per core")
    return lines


def tile_shares(tops: np.ndarray, tiles: tuple[int, ...]) -> str:
    """The share of games whose top exponent reached each of `tiles`, for the log."""
    return "  ".join(f"{1 << tile}: {np.mean(tops >= tile):6.2%}" for tile in tiles)


def restarts_summary(training: Training) -> str:
    """The restarted games since the last line, for the log (then forgotten); empty if none."""
    restarts, training.unlogged_restarts = training.unlogged_restarts, np.zeros((0, 2), np.int64)
    if not restarts.shape[0]:
        return ""
    return (f"restarted {restarts.shape[0]:,}: mean {restarts[:, SCORE].mean():,.0f}  "
            f"{tile_shares(restarts[:, TOP], RESTART_LOGGED_TILES)}  ")


def train(training: Training, checkpoint: Path, total_games: int, checkpoint_seconds: float,
          quiet: bool = False,
          screen: Callable[[Network], str] | None = None, screen_seconds: float = 0.0
          ) -> Training:
    """Rounds until `total_games` games are played on the run's workers, with checkpoints on
    the way, on the run's schedule; with a `screen`, its line for the network as it plays now
    at the start and every `screen_seconds` (the rounds wait for it)."""
    schedule, tables = training.schedule, row_tables()
    pool = ThreadPoolExecutor(training.workers)
    team = [Worker(copy=None) for _ in range(training.workers)]
    progress = tqdm(total=total_games, initial=training.games, unit="game", smoothing=0.1,
                    disable=quiet)
    saved, unsaved = time.monotonic(), False
    screened = -math.inf
    training.hold_weights()
    while training.games < total_games:
        if screen is not None and time.monotonic() - screened >= screen_seconds:
            progress.write(f"games {training.games:>10,}  "
                           f"{screen(training.playing_network())}")
            screened = time.monotonic()
        if not training.coherent and training.games >= schedule.td_games:
            training.start_coherence()
        before = training.games
        speeds = train_round(training, team, pool, schedule, tables)
        progress.update(training.games - before)
        progress.set_postfix_str(f"{np.mean(speeds) / 1e6:.2f} M moves/s per core")
        for line in log_lines(training, speeds):
            progress.write(line)
        unsaved = True
        if time.monotonic() - saved >= checkpoint_seconds:
            save_checkpoint(checkpoint, training)
            saved, unsaved = time.monotonic(), False
    if unsaved:
        save_checkpoint(checkpoint, training)
    progress.close()
    pool.shutdown()
    return training


def boundary(text: str) -> tuple[int, int]:
    """A restart boundary from the command line: "8192", "16384" or "16384+8192" as
    (exponent, exponent beside it or 0)."""
    tiles = [int(part) for part in text.split("+")]
    if len(tiles) > 2 or any(tile < 2 or tile & (tile - 1) for tile in tiles):
        raise argparse.ArgumentTypeError(f"a tile, or two joined by +, not {text!r}")
    exponents = [tile.bit_length() - 1 for tile in tiles]
    return exponents[0], exponents[1] if len(exponents) > 1 else 0


# The schedule's options: each field's type on the command line and what it does.
SCHEDULE_HELP = (
    ("rate", float, "TD(0): share of a value's error corrected by one update"),
    ("coherence_rate", float, "TC: the same share for a weight whose errors all agree"),
    ("td_games", int, "games of TD(0) before TC and the second stage start"),
    ("round_moves", int, "moves each worker plays between two averagings"),
    ("restart_share", float, "share of the games started from late boards, once any is found"),
    ("restart_tile", boundary, "a late board is a game's first holding this tile (16384+8192: "
                               "and 8192 beside it), when it did not start with them"),
    ("calibration_games", int, "games that fill TC's sums, the weights held still, when a run "
                               "goes on from the weights file or promotes stages"),
    ("trace", float, "TC's lambda: how far a value's target looks past the next move"),
    ("learn_stage", int, "only the boards of this stage (0 the first) and later ones learn"),
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=0, help="games to train in this run")
    parser.add_argument("--seed", type=int, help="a run --from-scratch's (default 1); a run "
                        "going on keeps the seed its checkpoint or weights file holds")
    parser.add_argument("--from-scratch", action="store_true",
                        help="start from a network of zeros (no checkpoint may exist)")
    parser.add_argument("--workers", type=int,
                        help="threads playing each round (default: the count the checkpoint "
                             "kept, or every core); the count shapes the rounds")
    kept = parser.add_argument_group(
        "run options", "kept in the checkpoint, which a run goes on with: one given that "
        "contradicts it stops the run unless --change-options")
    for name, parse, text in SCHEDULE_HELP:
        kept.add_argument(option_name(name), type=parse,
                          help=f"{text} (default {shown(name, getattr(Schedule, name))})")
    kept.add_argument("--stages", type=int, choices=range(1, MOST_STAGES + 1),
                      help="stages of the network; new ones are promoted from the one before "
                           "(their TC sums filled first)")
    kept.add_argument("--read-down", action="store_true", default=None,
                      help="late stages read boards down to 8192; a network that did not "
                           "promotes its late stages again from the first")
    kept.add_argument("--late-shapes", action="store_true", default=None,
                      help="late stages also read four more six-tuples (ntuple.LATE_SHAPES), "
                           "their weights starting at 0")
    kept.add_argument("--change-options", action="store_true",
                      help="let the run options given replace the checkpoint's (a new part of "
                           "the run, such as another stage)")
    parser.add_argument("--screen-minutes", type=float, default=30.0,
                        help="the late-game screen (training.probes) every so often; 0: never")
    parser.add_argument("--screen-workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--checkpoint-seconds", type=float, default=180.0)
    parser.add_argument("--checkpoint", type=Path,
                        help="the run's checkpoint, gone on with if it exists (default: "
                             f"{DEFAULT_CHECKPOINT}, which gives way to a weights file that "
                             "has trained more games)")
    parser.add_argument("--weights", type=Path, default=weights_file.SHIPPED,
                        help="weights file a new run starts from (without a checkpoint, or "
                             "when it has trained more games than the default checkpoint)")
    parser.add_argument("--export", type=Path, help="write the weights file here when done")
    parser.add_argument("--compact", action="store_true",
                        help="export the weights as int16 whole points")
    args = parser.parse_args(argv)
    if args.seed is not None and not args.from_scratch:
        parser.error("--seed starts a run --from-scratch; a run going on keeps its own seed")
    asked = Asked({option.name: getattr(args, option.name) for option in fields(Schedule)
                   if getattr(args, option.name) is not None},
                  Layout(args.stages, READ_DOWN_TOP if args.read_down else None,
                         args.late_shapes),
                  args.change_options)
    checkpoint = args.checkpoint or DEFAULT_CHECKPOINT
    training = resume(checkpoint, args.weights, 1 if args.seed is None else args.seed,
                      args.from_scratch, asked,
                      named=args.checkpoint is not None)
    training.workers = settle_workers(training.workers, args.workers, os.cpu_count() or 1,
                                      checkpoint, print)
    calibration = (f", TC's sums filled until game {training.learns_from:,}"
                   if training.calibrating else "")
    print(f"from {training.games:,} games ({training.moves:.3e} moves), round "
          f"{training.rounds}, seed {training.seed}, {training.table.shape[0]} stages (late "
          f"boards read with {1 << training.late_top} at most, "
          f"{int(np.sum(training.first_stages > 0))} shapes of their own), "
          f"{training.workers} workers"
          f"{calibration}", flush=True)
    print(f"options {training.schedule.command_line()}", flush=True)
    screen = ((lambda network: probes.screen_line(network, args.screen_workers))
              if args.screen_minutes and args.games else None)
    training = train(training, checkpoint, training.games + args.games, args.checkpoint_seconds,
                     screen=screen, screen_seconds=60 * args.screen_minutes)
    if args.export:
        counters = {"seed": training.seed, "rounds": training.rounds, "games": training.games,
                    "moves": training.moves}
        weights_file.save(args.export, training.playing_network(), counters, compact=args.compact)
        files = weights_file.network_files(args.export)
        print(f"wrote {args.export} and {len(files) - 1} stage files "
              f"({sum(file.stat().st_size for file in files):,} bytes)")


if __name__ == "__main__":
    main()
