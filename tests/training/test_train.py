"""The trainer: its moves are the game's, a run split at a checkpoint is the same run (from the
checkpoint alone: it keeps the run's options), and a run going on from a weights file fills TC's
sums before it learns."""

from dataclasses import asdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.solver import weights_file
from engine.solver.board import encode
from engine.solver.ntuple import (
    LATE_SHAPES, MAX_CELL_EXPONENT, READ_DOWN_TOP, SHAPES, board_value, empty_network,
    network_value, read_rows,
)
from training import trainer
from training.learning import (
    ERRORS, MAGNITUDES, WEIGHT, features_value, find_features, learn, moved, play_round,
    row_tables,
)

#: Compiling the trainer's kernels alone takes the quick tier's share: the whole module is slow.
pytestmark = pytest.mark.slow
SMALL_SHAPES = ((0, 1, 2, 3), (4, 5, 6, 7))  # 2 x 16**4 weights a stage: quick to copy


@pytest.fixture(scope="module")
def tables():
    return row_tables()


def packed(exponents) -> np.uint64:
    return np.uint64(sum(exponent << (4 * cell)
                         for cell, exponent in enumerate(e for row in exponents for e in row)))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 14), min_size=4, max_size=4), min_size=4, max_size=4),
       st.sampled_from(range(4)))
def test_a_move_on_the_training_board_is_the_games_move(tables, exponents, direction):
    tiles = [[1 << e if e else 0 for e in row] for row in exponents]
    expected_rows, expected_points = engine.slide(tiles, engine.DIRECTIONS[direction])
    after, points = moved(packed(exponents), direction, *tables)
    expected = [[value.bit_length() - 1 if value else 0 for value in row]
                for row in expected_rows]
    assert (after, points) == (packed(expected), expected_points)


@pytest.fixture(scope="module")
def random_network():
    """Three stages; the last shape is read by the late stages alone (the first stage's
    weights for it are not 0, so reading them would show)."""
    network = empty_network(SHAPES[:2] + LATE_SHAPES[:1], stages=3, first_stages=(0, 0, 1))
    network.weights[:] = np.random.default_rng(3).normal(0, 100, network.weights.shape)
    return network


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=16, max_size=16), st.sampled_from((1, 2, 3)),
       st.sampled_from((READ_DOWN_TOP, MAX_CELL_EXPONENT)))
def test_the_trainers_value_of_a_board_is_the_solvers(random_network, exponents, stages,
                                                      late_top):
    weights = random_network.weights[:stages]
    rows = [exponents[row * 4:row * 4 + 4] for row in range(4)]
    board = packed(rows)
    features = np.zeros((1, 8 * len(random_network.shapes)), dtype=np.uint64)
    counts = np.zeros(1, dtype=np.int64)
    stage = find_features(board, random_network.placements, stages, late_top, 16**6, features,
                          counts, 0)
    trained = features_value(weights.reshape(-1, 1), features, counts, 0)  # weights only
    assert counts[0] == 8 * (2 if stage == 0 else 3)
    # All sum the same weights; the trainer in float32, hence the margin.
    solver = network_value(encode(tuple(map(tuple, rows))), weights, random_network.placements,
                           late_top)
    assert trained == pytest.approx(solver, abs=0.01)
    assert board_value(board, weights, random_network.placements, late_top) == solver
    assert stage == read_rows(encode(tuple(map(tuple, rows))), stages, late_top)[1]


# Restarts from the first board holding 128, so that short runs find and use late boards.
SCHEDULE = trainer.Schedule(td_games=60, round_moves=2_000, restart_tile=(7, 0),
                            calibration_games=30)
ASKED = trainer.Asked(asdict(SCHEDULE))


def play(tables, starts, restart_share, restart_exponent):
    """A round of 3,000 moves on a fresh small network: its outcomes and the boards found."""
    network = empty_network(SMALL_SHAPES)
    outcomes, found = np.zeros((400, 3), dtype=np.int64), np.zeros(50, dtype=np.uint64)
    games, _moves, found_count = play_round(
        network.weights.reshape(-1, 1), False, 0.1, 0.0, network.placements, 2,
        MAX_CELL_EXPONENT, 0, *tables, 7, 3_000, np.zeros(20_000, np.uint64),
        np.zeros(20_000, np.int64), outcomes, starts, restart_share, restart_exponent, 0, found)
    return outcomes[:games], found[:found_count]


def test_restarted_games_start_from_the_late_boards_given(tables):
    late = packed([[7, 6, 5, 4], [1, 2, 3, 0], [0] * 4, [0] * 4])  # 128, 64, 32, 16 ...
    outcomes, found = play(tables, np.array([late], dtype=np.uint64), 1.0, 7)
    assert outcomes[:, 2].all()  # every game a restart
    assert (outcomes[:, 1] >= 7).all()  # each kept the 128 it started with
    assert found.shape[0] == 0  # a restart finds nothing: it started late


def test_fresh_games_find_their_first_late_board(tables):
    outcomes, found = play(tables, np.zeros(0, dtype=np.uint64), 0.5, 7)
    assert not outcomes[:, 2].any()  # no starts: every game fresh
    reached = int((outcomes[:, 1] >= 7).sum())
    assert found.shape[0] == min(reached, 50) > 0
    for board in found:
        assert max((int(board) >> (4 * cell)) & 15 for cell in range(16)) == 7


def lambda_returns(rewards: np.ndarray, trace: float) -> np.ndarray:
    """Each afterstate's target when every value is still 0: the next move's points plus
    `trace` times the next afterstate's own target (the last afterstate's is 0)."""
    targets = np.zeros(len(rewards))
    for step in range(len(rewards) - 2, -1, -1):
        targets[step] = rewards[step + 1] + trace * targets[step + 1]
    return targets


@pytest.mark.parametrize("trace", [0.0, 0.5, 1.0])
def test_a_game_is_learned_from_towards_its_lambda_returns(tables, trace):
    """At a tiny rate the values stay near 0, so each update adds rate x its target to the
    weights' sum, however the board's 16 features fall: the sum over one game is rate x the
    sum of the game's lambda-returns, recomputed here from its moves' points."""
    network, rate = empty_network(SMALL_SHAPES), 1e-6
    path, rewards = np.zeros(20_000, np.uint64), np.zeros(20_000, np.int64)
    games, moves, _found = play_round(
        network.weights.reshape(-1, 1), False, rate, trace, network.placements, 2,
        MAX_CELL_EXPONENT, 0, *tables, 11, 1, path, rewards, np.zeros((1, 3), dtype=np.int64),
        np.zeros(0, np.uint64), 0.0, 7, 0, np.zeros(1, dtype=np.uint64))
    assert games == 1 and moves > 100
    expected = lambda_returns(rewards[:moves], trace).sum()
    assert network.weights.sum(dtype=np.float64) / rate == pytest.approx(expected, rel=1e-3)
    if trace == 1.0:  # the first afterstate's target: every point scored after it
        assert lambda_returns(rewards[:moves], trace)[0] == rewards[1:moves].sum()


@pytest.mark.parametrize("coherent", [False, True])
@pytest.mark.parametrize("sign", [1, -1])
def test_no_weight_learns_past_what_the_compact_file_keeps(coherent, sign):
    """A target far past the bound moves each of the board's weights to the bound, not past
    it, so the export has nothing to cut."""
    limit = weights_file.WHOLE_POINTS_LIMIT
    table = np.zeros((4, 3 if coherent else 1), dtype=np.float32)
    table[:, WEIGHT] = sign * (limit - 10)
    features = np.arange(4, dtype=np.uint64).reshape(1, 4)
    value = learn(features, np.array([4]), 0, sign * 10.0 * limit, table, coherent, 1.0)
    assert (table[:, WEIGHT] == sign * limit).all()
    assert value == sign * 4 * limit
    assert (weights_file.in_whole_points(table[:, WEIGHT]) == table[:, WEIGHT]).all()


def test_a_run_holds_weights_from_before_the_bound_at_its_edge(tmp_path):
    """A checkpoint with weights past the bound goes on with them held at its edge, even
    weights no game updates (the second stage's, in games that never reach 16384)."""
    training = run(tmp_path / "checkpoint.npz", 2_000)
    limit = weights_file.WHOLE_POINTS_LIMIT
    training.table[1, 0, :2, WEIGHT] = (3 * limit, -3 * limit)
    trainer.save_checkpoint(tmp_path / "checkpoint.npz", training)
    resumed = run(tmp_path / "checkpoint.npz", training.games + 1)
    assert np.abs(resumed.table[..., WEIGHT]).max() <= limit


def run(checkpoint, games, weights=None):
    """Train to `games` games on 2 workers, from the checkpoint if there is one (or from the
    weights file `weights`)."""
    training = trainer.resume(
        checkpoint, weights or checkpoint.with_name("none.npz"), seed=5,
        from_scratch=not checkpoint.exists() and weights is None, asked=ASKED,
        shapes=SMALL_SHAPES)
    training.workers = 2
    return trainer.train(training, checkpoint, games, checkpoint_seconds=0.0, quiet=True)


def exported(training, path):
    """`training`'s network written as a weights file at `path`."""
    weights_file.save(path, training.playing_network(), {
        "seed": 5, "rounds": training.rounds, "games": training.games, "moves": training.moves})
    return path


def test_a_run_split_at_a_checkpoint_equals_one_run(tmp_path):
    whole = run(tmp_path / "whole.npz", 200)
    run(tmp_path / "split.npz", 100)
    resumed = run(tmp_path / "split.npz", 200)
    assert whole.coherent and resumed.coherent  # the split falls after TC started
    assert whole.found > 0 and whole.starts.shape[0] > 0  # late boards were found
    assert (resumed.rounds, resumed.games, resumed.moves, resumed.found) == (
        whole.rounds, whole.games, whole.moves, whole.found)
    assert whole.unlogged_restarts.shape[0] > 0  # games restarted from them
    for name in ("table", "unlogged_scores", "unlogged_tops", "unlogged_restarts", "starts"):
        assert np.array_equal(getattr(resumed, name), getattr(whole, name)), name
    assert np.any(whole.table[1, ..., WEIGHT])  # the second stage was copied from the first
    assert np.any(whole.table[..., ERRORS]) and np.any(whole.table[..., MAGNITUDES])


# A run's options, none of them the default, and the machine's (never kept in a checkpoint).
RUN_OPTIONS = ["--rate", "0.05", "--coherence-rate", "0.25", "--td-games", "60",
               "--round-moves", "2000", "--restart-share", "0.7", "--restart-tile", "128",
               "--calibration-games", "30", "--trace", "0.3", "--read-down"]
RUN_SCHEDULE = trainer.Schedule(rate=0.05, coherence_rate=0.25, td_games=60, round_moves=2_000,
                                restart_share=0.7, restart_tile=(7, 0), calibration_games=30,
                                trace=0.3)


def command(tmp_path, checkpoint, games, *options):
    """`python -m training.trainer` without the screen: a new run starts from a small network
    of zeros, on 3 workers (not the machine's cores, which a run going on must not fall back
    to); one going on from its checkpoint is given `options` alone (the shipped weights file,
    which has trained more games, does not take its place)."""
    start = tmp_path / "start.npz"
    if not checkpoint.exists():
        weights_file.save(start, empty_network(SMALL_SHAPES),
                          {"seed": 5, "rounds": 0, "games": 0, "moves": 0})
        options = ("--workers", "3", *options, "--weights", str(start))
    trainer.main(["--checkpoint", str(checkpoint), "--games", str(games),
                  "--screen-minutes", "0", *options])
    return trainer.load_checkpoint(checkpoint)


def test_a_run_goes_on_from_its_checkpoint_alone_as_if_it_had_not_stopped(tmp_path, capsys):
    whole = command(tmp_path, tmp_path / "whole.npz", 200, *RUN_OPTIONS)
    first = command(tmp_path, tmp_path / "split.npz", 100, *RUN_OPTIONS)
    assert first.coherent  # the split falls after TC started
    resumed = command(tmp_path, tmp_path / "split.npz", 200 - first.games)
    assert "options --rate 0.05 --coherence-rate 0.25" in capsys.readouterr().out
    assert whole.schedule == resumed.schedule == RUN_SCHEDULE
    assert whole.workers == resumed.workers == 3
    assert whole.late_top == resumed.late_top == READ_DOWN_TOP
    assert whole.found > 0 and whole.starts.shape[0] > 0  # late boards were found
    assert (resumed.rounds, resumed.games, resumed.moves, resumed.found) == (
        whole.rounds, whole.games, whole.moves, whole.found)
    assert resumed.table.tobytes() == whole.table.tobytes()  # weights and TC's sums
    for name in ("unlogged_scores", "unlogged_tops", "unlogged_restarts", "starts"):
        assert np.array_equal(getattr(resumed, name), getattr(whole, name)), name


def test_another_count_of_workers_goes_on_from_the_checkpoint_and_says_so(tmp_path, capsys):
    checkpoint = tmp_path / "checkpoint.npz"
    first = command(tmp_path, checkpoint, 20, *RUN_OPTIONS)
    resumed = command(tmp_path, checkpoint, 20, "--workers", "1")
    assert (f"--workers 1 from now on, was 3 in {checkpoint}: the rounds from here on differ "
            "from those 3 would play") in capsys.readouterr().out
    assert resumed.workers == 1 and resumed.games > first.games


def test_a_seed_is_refused_for_a_run_that_goes_on(tmp_path, capsys):
    checkpoint = tmp_path / "checkpoint.npz"
    command(tmp_path, checkpoint, 20, *RUN_OPTIONS)
    written = checkpoint.read_bytes()
    with pytest.raises(SystemExit) as stopped:
        command(tmp_path, checkpoint, 20, "--seed", "7")
    assert stopped.value.code == 2
    assert ("--seed starts a run --from-scratch; a run going on keeps its own seed"
            in capsys.readouterr().err)
    assert checkpoint.read_bytes() == written


def test_every_field_of_the_schedule_is_an_option_of_the_command_line():
    assert [name for name, _parse, _help in trainer.SCHEDULE_HELP] == list(asdict(SCHEDULE))


def test_an_option_that_contradicts_the_checkpoint_stops_the_run_unless_changes_are_asked(
        tmp_path, capsys):
    checkpoint = tmp_path / "checkpoint.npz"
    first = command(tmp_path, checkpoint, 20, *RUN_OPTIONS)
    written = checkpoint.read_bytes()
    with pytest.raises(SystemExit) as stopped:
        command(tmp_path, checkpoint, 20, "--restart-share", "0.9", "--restart-tile", "128",
                "--stages", "3")
    assert str(stopped.value) == (
        f"{checkpoint} was trained with --restart-share 0.7, not 0.9; --stages 2, not 3: "
        "leave those options out to go on as it was, or add --change-options to change them")
    assert checkpoint.read_bytes() == written  # nothing trained, nothing written
    changed = command(tmp_path, checkpoint, 20, "--restart-share", "0.9", "--stages", "3",
                      "--change-options")
    out = capsys.readouterr().out
    assert f"--restart-share 0.9 from now on, was 0.7 in {checkpoint}" in out
    assert f"--stages 3 from now on, was 2 in {checkpoint}" in out
    assert changed.schedule == trainer.Schedule(**{**asdict(RUN_SCHEDULE), "restart_share": 0.9})
    assert changed.table.shape[0] == 3 and changed.games > first.games


def test_a_checkpoint_from_before_options_were_kept_goes_on_with_the_command_lines(
        tmp_path, capsys):
    checkpoint = tmp_path / "checkpoint.npz"
    first = command(tmp_path, checkpoint, 20, *RUN_OPTIONS)
    with np.load(checkpoint) as stored:  # as written before checkpoints kept options
        old = {name: stored[name] for name in stored.files if name != "options"}
    np.savez(checkpoint, **old)
    assert trainer.load_checkpoint(checkpoint).schedule is None
    options = [*RUN_OPTIONS[:RUN_OPTIONS.index("--restart-share")], "--restart-share", "0.9",
               *RUN_OPTIONS[RUN_OPTIONS.index("--restart-share") + 2:]]
    resumed = command(tmp_path, checkpoint, 20, *options)
    assert (f"{checkpoint} keeps no options (written before checkpoints kept them): going on "
            "with the command line's and the defaults, --rate 0.05") in capsys.readouterr().out
    assert resumed.games > first.games
    assert resumed.schedule == trainer.Schedule(**{**asdict(RUN_SCHEDULE), "restart_share": 0.9})


def test_a_run_goes_on_from_the_weights_file_when_it_is_further(tmp_path):
    checkpoint = tmp_path / "checkpoint.npz"
    early = run(checkpoint, 40)
    further = tmp_path / "ntuple.npz"
    counters = {"seed": 5, "rounds": 99, "games": 5_000, "moves": 10**6}
    weights_file.save(further, early.playing_network(), counters)
    resumed = trainer.resume(checkpoint, further, seed=5, from_scratch=False, asked=ASKED)
    assert (resumed.rounds, resumed.games) == (99, 5_000)
    assert np.array_equal(resumed.playing_network().weights, early.playing_network().weights)
    assert not resumed.calibrating  # TD(0) has no sums to fill
    alone = trainer.resume(checkpoint, tmp_path / "none.npz", 5, False, ASKED)
    assert alone.games == early.games
    named = trainer.resume(checkpoint, further, 5, False, ASKED, named=True)
    assert named.games == early.games  # a checkpoint named on the command line is its own run


def test_a_weights_file_past_the_start_of_tc_keeps_its_second_stage(tmp_path):
    late = run(tmp_path / "checkpoint.npz", 100)
    assert late.coherent and not np.array_equal(late.table[0], late.table[1])
    path = exported(late, tmp_path / "ntuple.npz")
    resumed = trainer.resume(tmp_path / "none.npz", path, seed=5, from_scratch=False,
                             asked=ASKED)
    assert resumed.coherent
    assert np.array_equal(resumed.table[..., WEIGHT], late.table[..., WEIGHT])
    assert not resumed.table[..., ERRORS:].any()  # the file keeps no sums
    assert resumed.learns_from == late.games + 30 and resumed.calibrating
    assert (resumed.sums_scale == (late.games - 60) / 30).all()  # the games TC learned from


def test_going_on_from_a_weights_file_fills_tcs_sums_before_learning(tmp_path):
    late = run(tmp_path / "first.npz", 100)
    path = exported(late, tmp_path / "ntuple.npz")
    checkpoint = tmp_path / "second.npz"
    calibrated = run(checkpoint, late.games + 1, weights=path)  # one round
    assert calibrated.calibrating  # a round of 2 x 2,000 moves plays fewer than 30 games
    assert np.array_equal(calibrated.table[..., WEIGHT], late.table[..., WEIGHT])
    assert calibrated.table[..., MAGNITUDES].any()  # the errors went into the sums
    assert (calibrated.sums_scale > 1).all()  # not scaled yet
    resumed = run(checkpoint, late.games + 30)  # from its checkpoint, still calibrating
    assert not resumed.calibrating and resumed.learns_from == late.games + 30
    assert (resumed.sums_scale == 1).all()  # scaled once, when calibration ended
    assert np.array_equal(resumed.table[..., WEIGHT], late.table[..., WEIGHT])
    learned = run(checkpoint, resumed.games + 1)
    assert not np.array_equal(learned.table[..., WEIGHT], late.table[..., WEIGHT])


def test_calibrated_sums_grow_as_a_longer_history_would():
    training = trainer.Training.of(5, empty_network(SMALL_SHAPES), coherent=True,
                                        sums_scale=9.0)
    training.table[..., ERRORS], training.table[..., MAGNITUDES] = -2.0, 4.0
    training.lengthen_sums()
    assert (training.table[..., ERRORS] == -6.0).all()  # errors that cancel: by the square root
    assert (training.table[..., MAGNITUDES] == 36.0).all()  # sizes: in proportion
    assert (training.sums_scale == 1.0).all()


def test_a_log_line_sums_up_the_restarted_games_since_the_last_apart():
    training = trainer.Training.of(5, empty_network(SMALL_SHAPES), games=20_000)
    training.unlogged_scores = np.full(2 * trainer.LOG_EVERY, 1000)
    training.unlogged_tops = np.full(2 * trainer.LOG_EVERY, 13)
    training.unlogged_restarts = np.array([[100_000, 14], [300_000, 15]])
    first, second = trainer.log_lines(training, speeds=[1e6])
    assert "mean score     1,000  2048: 100.00%" in first and "16384:  0.00%" in first
    assert "restarted 2: mean 200,000  16384: 100.00%  32768: 50.00%" in first
    assert "restarted" not in second  # none since the first line
    assert training.unlogged_restarts.shape == (0, 2)


def coherent_training(stages=2):
    """A run in TC over a small network whose stages differ, its sums filled."""
    network = empty_network(SMALL_SHAPES, stages=stages)
    for stage in range(stages):
        network.weights[stage] = stage + 1.0
    training = trainer.Training.of(5, network, coherent=True, games=1_000)
    training.table[..., ERRORS], training.table[..., MAGNITUDES] = 1.0, 2.0
    training.sums_scale[:] = 4.0
    return training


def test_read_down_late_stages_start_again_as_copies_of_the_first():
    training = coherent_training()
    assert training.promote(3, READ_DOWN_TOP) == [1, 2]
    assert training.late_top == READ_DOWN_TOP
    assert (training.table[:, ..., WEIGHT] == 1.0).all()  # every stage the first's copy
    assert (training.table[1:, ..., ERRORS:] == 0).all()  # promoted: sums from nothing
    assert (training.table[0, ..., ERRORS] == 1.0).all()  # the first keeps its sums
    assert training.sums_scale[:, 0].tolist() == [4.0, 1.0, 1.0]  # and its history's length
    assert training.promote(3, READ_DOWN_TOP) == []  # already so


def test_a_new_stage_starts_as_a_copy_of_the_one_before_it():
    training = coherent_training()
    assert training.promote(3, MAX_CELL_EXPONENT) == [2]
    assert [float(training.table[stage, 0, 0, WEIGHT]) for stage in range(3)] == [1, 2, 2]
    assert (training.table[1, ..., ERRORS] == 1.0).all()  # kept as it was


def test_a_run_given_a_new_layout_fills_the_promoted_stages_sums_before_learning(tmp_path):
    late = run(tmp_path / "first.npz", 100)
    path = exported(late, tmp_path / "ntuple.npz")
    resumed = trainer.resume(tmp_path / "none.npz", path, 5, False,
                             trainer.Asked(asdict(SCHEDULE), trainer.Layout(3, READ_DOWN_TOP)))
    assert resumed.table.shape[0] == 3 and resumed.late_top == READ_DOWN_TOP
    assert resumed.calibrating and resumed.learns_from == late.games + 30
    assert (resumed.sums_scale[1:] == 1.0).all()  # nothing to lengthen
    saved = tmp_path / "promoted.npz"
    trainer.save_checkpoint(saved, resumed)
    again = trainer.load_checkpoint(saved)
    assert again.late_top == READ_DOWN_TOP and again.learns_from == resumed.learns_from
    assert np.array_equal(again.sums_scale, resumed.sums_scale)
    assert again.starts_boundary == SCHEDULE.restart_tile


def late_round(tables, learned_stage, start, boundary=(14, 0)):
    """A round of 3,000 moves on a small read-down network of 3 stages (the first's weights 0,
    the late ones' 2 and 3), every game restarted from `start`: the table after it, and the
    boards found past `boundary`."""
    network = empty_network(SMALL_SHAPES, stages=3, late_top=READ_DOWN_TOP)
    network.weights[1], network.weights[2] = 2.0, 3.0
    table = network.weights.reshape(-1, 1).copy()
    outcomes, found = np.zeros((400, 3), dtype=np.int64), np.zeros(50, dtype=np.uint64)
    games, _moves, found_count = play_round(
        table, False, 0.1, 0.5, network.placements, 3, READ_DOWN_TOP, learned_stage, *tables, 9,
        3_000, np.zeros(20_000, np.uint64), np.zeros(20_000, np.int64), outcomes,
        np.array([start], dtype=np.uint64), 1.0, boundary[0], boundary[1], found)
    assert games > 0 and outcomes[:games, 2].all()
    return table.reshape(network.weights.shape), found[:found_count]


# 16384, 8192 and two 4096s: merging the 4096s makes a second 8192 (a third-stage board),
# merging the 8192s then a second 16384 (back to the second stage), so games visit both.
BOTH_LATE_STAGES = packed([[14, 13, 12, 12], [1, 2, 3, 1], [2, 1, 2, 3], [0] * 4])


@pytest.mark.parametrize("learned_stage", [1, 2])
def test_only_the_boards_of_the_learned_stage_and_later_ones_learn(tables, learned_stage):
    table, _found = late_round(tables, learned_stage, BOTH_LATE_STAGES)
    changed = [not np.all(table[stage] == table[stage].flat[0]) for stage in range(3)]
    assert changed == [stage >= learned_stage for stage in range(3)]


def test_late_restarts_find_their_games_first_board_past_both_tiles(tables):
    start = packed([[7, 5, 4, 3], [1, 2, 3, 1], [0] * 4, [0] * 4])  # 128, no 64
    _table, found = late_round(tables, 1, start, boundary=(7, 6))
    assert found.shape[0] > 0  # games from a board without a 64 that made one
    for board in found:
        cells = [(int(board) >> (4 * cell)) & 15 for cell in range(16)]
        assert max(cells) >= 7 and 6 in cells


def test_the_kept_late_boards_go_when_games_restart_past_another_boundary():
    training = coherent_training()
    training.keep_starts(np.array([1, 2, 3], dtype=np.uint64))
    training.restart_from(training.starts_boundary)
    assert training.starts.shape[0] == 3
    training.restart_from((14, 13))
    assert training.starts.shape[0] == 0 and training.found == 0
    assert training.starts_boundary == (14, 13)


SMALL_LATE_SHAPE = ((0, 1, 4, 5),)  # a square, read by the late stages alone


def test_late_shapes_start_at_0_so_the_network_values_boards_as_before(tmp_path):
    training = coherent_training()
    boards = [packed([[14, 3, 2, 1], [1, 2, 0, 0], [0] * 4, [0] * 4]),
              packed([[13, 3, 2, 1], [1, 2, 0, 0], [0] * 4, [0] * 4])]
    network = training.playing_network()
    before = [board_value(board, network.weights, network.placements, network.late_top)
              for board in boards]
    assert training.add_late_shapes(SMALL_LATE_SHAPE)
    assert training.table.shape[1] == 3 and training.first_stages.tolist() == [0, 0, 1]
    assert not training.add_late_shapes(SMALL_LATE_SHAPE)  # the late stages have them
    network = training.playing_network()
    assert [board_value(board, network.weights, network.placements, network.late_top)
            for board in boards] == before
    trainer.save_checkpoint(tmp_path / "late.npz", training)
    again = trainer.load_checkpoint(tmp_path / "late.npz")
    assert again.first_stages.tolist() == [0, 0, 1] and again.late_shapes
    assert np.array_equal(again.shapes, training.shapes)
    assert again.table.tobytes() == training.table.tobytes()


@pytest.mark.parametrize("learned_stage, start", [(0, None), (1, BOTH_LATE_STAGES)])
def test_a_late_shape_learns_from_the_late_stages_boards_alone(tables, learned_stage, start):
    """Fresh games of a small network never reach 16384: the first stage learns, and its
    weights for the late shape stay 0; games restarted at 16384 teach the late shape."""
    network = empty_network(SMALL_SHAPES + SMALL_LATE_SHAPE, first_stages=(0, 0, 1))
    table = network.weights.reshape(-1, 1)
    starts = np.zeros(0, np.uint64) if start is None else np.array([start], np.uint64)
    outcomes = np.zeros((400, 3), dtype=np.int64)
    games, _moves, _found = play_round(
        table, False, 0.1, 0.0, network.placements, 2, MAX_CELL_EXPONENT, learned_stage,
        *tables, 11, 3_000, np.zeros(20_000, np.uint64), np.zeros(20_000, np.int64), outcomes,
        starts, 1.0, 15, 0, np.zeros(1, np.uint64))
    assert games > 0
    learned = network.weights
    assert np.any(learned[learned_stage, :2]) and np.any(learned[1, 2]) == (learned_stage == 1)
    assert not np.any(learned[0, 2])  # the first stage never reads the late shape


def test_a_run_asked_for_late_shapes_goes_on_with_them(tmp_path):
    late = run(tmp_path / "first.npz", 100)
    path = exported(late, tmp_path / "ntuple.npz")
    resumed = trainer.resume(tmp_path / "none.npz", path, 5, False,
                             trainer.Asked(asdict(SCHEDULE), trainer.Layout(late_shapes=True)),
                             late_shapes=SMALL_LATE_SHAPE)
    assert resumed.late_shapes and resumed.table.shape[1] == 3
    resumed.workers = 2
    trained = trainer.train(resumed, tmp_path / "late.npz", resumed.games + 60,
                            checkpoint_seconds=0.0, quiet=True)
    exported(trained, tmp_path / "late-weights.npz")
    loaded = weights_file.load(tmp_path / "late-weights.npz")
    assert loaded.first_stages.tolist() == [0, 0, 1]
    assert not np.any(loaded.weights[0, 2])


def test_late_shapes_added_from_the_weights_file_are_calibrated_but_not_lengthened(tmp_path):
    """Going on from the file, the sums of the weights it kept are lengthened to their history;
    the new shapes' have none."""
    late = run(tmp_path / "first.npz", 100)
    path = exported(late, tmp_path / "ntuple.npz")
    resumed = trainer.resume(tmp_path / "none.npz", path, 5, False,
                             trainer.Asked(asdict(SCHEDULE), trainer.Layout(late_shapes=True)),
                             late_shapes=SMALL_LATE_SHAPE)
    assert resumed.calibrating
    assert (resumed.sums_scale[:, :2] > 1).all() and (resumed.sums_scale[:, 2] == 1).all()


@pytest.mark.parametrize("kept", [np.array(4.0), np.array([4.0, 2.0])])
def test_a_checkpoint_from_before_late_shapes_keeps_its_scales(tmp_path, kept):
    training = coherent_training()
    trainer.save_checkpoint(tmp_path / "old.npz", training)
    with np.load(tmp_path / "old.npz") as arrays:
        stored = dict(arrays)
    np.savez(tmp_path / "old.npz", **{**stored, "sums_scale": kept})
    again = trainer.load_checkpoint(tmp_path / "old.npz")
    assert again.sums_scale.shape == (2, len(SMALL_SHAPES))
    assert (again.sums_scale == np.reshape(kept, (-1, 1))).all()
