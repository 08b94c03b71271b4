"""A run's options: kept as JSON in the checkpoint, and settled against the command line's when
the run goes on (the trainer's tests run it end to end)."""

from pathlib import Path

import pytest

from engine.solver.ntuple import MAX_CELL_EXPONENT, READ_DOWN_TOP
from training.run_options import Asked, Layout, Schedule, settle, settle_workers

KEPT = Schedule(rate=0.05, restart_share=0.9, restart_tile=(14, 13), learn_stage=2)
CHECKPOINT = Path("/runs/late.npz")


def settled(asked: Asked, kept: Schedule | None = KEPT) -> tuple[Schedule, list[str]]:
    """The schedule settled for a 3-stage network reading boards as they are, its late stages
    without late shapes, and the notices printed."""
    notices: list[str] = []
    return settle(kept, Layout(3, MAX_CELL_EXPONENT, False), asked, CHECKPOINT,
                  notices.append), notices


def test_a_schedule_kept_as_json_reads_back_the_same():
    assert Schedule.from_json(KEPT.to_json()) == KEPT
    assert "--restart-tile 16384+8192 " in KEPT.command_line()
    assert Schedule().command_line().startswith("--rate 0.1 --coherence-rate 0.5 --td-games")


def test_a_field_added_since_the_schedule_was_kept_takes_its_default():
    assert Schedule.from_json('{"rate": 0.2}') == Schedule(rate=0.2)


@pytest.mark.parametrize("text", ['{"speed": 1}', "[0.1]", '{"restart_tile": 13}', "{"])
def test_what_is_not_a_kept_schedule_is_a_value_error(text):
    with pytest.raises(ValueError):
        Schedule.from_json(text)


def test_options_that_agree_with_the_checkpoint_go_on_as_it_was():
    schedule, notices = settled(Asked({"rate": 0.05, "restart_tile": (14, 13)}, Layout(3)))
    assert schedule == KEPT and notices == []


def test_a_contradiction_names_both_values_in_one_line():
    with pytest.raises(SystemExit) as stopped:
        settled(Asked({"restart_tile": (14, 0), "learn_stage": 2, "trace": 0.3},
                      Layout(2, READ_DOWN_TOP, True)))
    assert str(stopped.value) == (
        "/runs/late.npz was trained with --restart-tile 16384+8192, not 16384; --trace 0.5, "
        "not 0.3; --stages 3, not 2; --read-down off, not on; --late-shapes off, not on: leave "
        "those options out to go on as it was, or add --change-options to change them")


def test_asked_changes_replace_what_the_checkpoint_keeps_with_a_notice():
    schedule, notices = settled(Asked({"learn_stage": 1},
                                      Layout(late_top=READ_DOWN_TOP, late_shapes=True),
                                      change=True))
    assert schedule == Schedule(rate=0.05, restart_share=0.9, restart_tile=(14, 13),
                                learn_stage=1)
    assert notices == ["--learn-stage 1 from now on, was 2 in /runs/late.npz",
                       "--read-down on from now on, was off in /runs/late.npz",
                       "--late-shapes on from now on, was off in /runs/late.npz"]


def test_a_checkpoint_keeping_no_options_goes_on_with_the_command_lines():
    schedule, notices = settled(Asked({"restart_share": 0.9}, Layout(2)), kept=None)
    assert schedule == Schedule(restart_share=0.9)
    assert notices == [
        "/runs/late.npz keeps no options (written before checkpoints kept them): going on with "
        f"the command line's and the defaults, {schedule.command_line()}, kept in it from now on"]


def test_a_run_goes_on_with_the_workers_it_kept_unless_others_are_asked():
    notices: list[str] = []
    assert settle_workers(3, None, 8, CHECKPOINT, notices.append) == 3
    assert settle_workers(0, None, 8, CHECKPOINT, notices.append) == 8  # none kept: every core
    assert settle_workers(3, 3, 8, CHECKPOINT, notices.append) == 3 and notices == []
    assert settle_workers(3, 2, 8, CHECKPOINT, notices.append) == 2
    assert notices == ["--workers 2 from now on, was 3 in /runs/late.npz: the rounds from here "
                       "on differ from those 3 would play"]
