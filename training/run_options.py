"""A training run's options: how it learns (`Schedule`), its network's layout (`Layout`) and
the workers its rounds are played on.

The schedule is kept in the run's checkpoint (a short JSON string), so that a run goes on from
`--checkpoint PATH --games N` alone, on any machine; the layout is the checkpoint's network
itself. An option asked for on the command line that contradicts what the checkpoint keeps
stops the run, unless `--change-options` says the change is meant (a new part of the run, such
as training another stage). A checkpoint written before checkpoints kept the schedule goes on
with the command line's, as it did then.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import NamedTuple

from engine.solver.ntuple import READ_DOWN_TOP


@dataclass(frozen=True)
class Schedule:
    """How a run learns: TD(0) at `rate` for `td_games` games, then TC at `coherence_rate`
    towards lambda-returns with lambda = `trace`;
    `round_moves` moves a worker between averagings; a share of the games (`restart_share`)
    restarted from late boards, the first boards of games past `restart_tile` (the exponent of
    a tile, and of a tile beside it unless 0) that did not start past it;
    `calibration_games` fill TC's sums when a run goes on from a weights file, or when stages
    are promoted; only the boards of stage `learn_stage` and later stages learn.
    Each field is the command line's option of the same name (`--restart-tile` ...)."""

    rate: float = 0.1
    coherence_rate: float = 0.5  # 1.0 and 0.25 played worse late on (runs 12, 13: docs/notebook)
    td_games: int = 100_000
    round_moves: int = 20_000_000
    restart_share: float = 0.5
    restart_tile: tuple[int, int] = (13, 0)  # 8192
    calibration_games: int = 40_000
    trace: float = 0.5
    learn_stage: int = 0

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Schedule:
        """The schedule a checkpoint keeps; ValueError if it is not one. A field it lacks (one
        added since it was written) takes its default, which is what runs did before."""
        kept = json.loads(text)
        names = {option.name for option in fields(cls)}
        if not isinstance(kept, dict) or not set(kept) <= names or not isinstance(
                kept.get("restart_tile", []), list):
            raise ValueError(f"not a training schedule: {text[:200]}")
        if "restart_tile" in kept:
            kept["restart_tile"] = tuple(kept["restart_tile"])
        return cls(**kept)

    def command_line(self) -> str:
        """The schedule as the options that ask for it."""
        return " ".join(f"{option_name(name)} {shown(name, value)}"
                        for name, value in asdict(self).items())


class Layout(NamedTuple):
    """The stages a network has, how its late stages read a board and whether they read
    LATE_SHAPES too (engine.solver.ntuple); None keeps what the run has."""

    stages: int | None = None
    late_top: int | None = None
    late_shapes: bool | None = None


@dataclass(frozen=True)
class Asked:
    """What the command line asks of a run: the schedule's fields it names (the others take
    their defaults in a new run), the layout, and whether they may change a checkpoint's."""

    options: dict[str, object] = field(default_factory=dict)
    layout: Layout = Layout()
    change: bool = False

    def schedule(self) -> Schedule:
        """The schedule of a run started now."""
        return Schedule(**self.options)


def option_name(name: str) -> str:
    """The command line's option for a schedule's field or a layout's."""
    return "--read-down" if name == "late_top" else "--" + name.replace("_", "-")


def shown(name: str, value: object) -> str:
    """An option's value as the command line writes it."""
    if name == "restart_tile":
        return "+".join(str(1 << exponent) for exponent in value if exponent)
    if name == "late_top":
        return "on" if value == READ_DOWN_TOP else "off"
    if name == "late_shapes":
        return "on" if value else "off"
    return str(value)


def settle(kept: Schedule | None, layout: Layout, asked: Asked, checkpoint: Path,
           notice: Callable[[str], None]) -> Schedule:
    """The schedule a run goes on with from `checkpoint`, which keeps `kept` (None if written
    before checkpoints kept one) and a network of that `layout`: what it keeps,
    unless the command line asks otherwise with `--change-options`; a contradiction without it
    stops the run with a one-line SystemExit naming both values."""
    if kept is None:
        schedule = asked.schedule()
        notice(f"{checkpoint} keeps no options (written before checkpoints kept them): going on "
               f"with the command line's and the defaults, {schedule.command_line()}, kept "
               f"in it from now on")
        return schedule
    has = {**asdict(kept), **layout._asdict()}
    wants = {**asked.options, **{name: value for name, value in asked.layout._asdict().items()
                                 if value is not None}}
    changed = {name: value for name, value in wants.items() if value != has[name]}
    if changed and not asked.change:
        contradictions = "; ".join(f"{option_name(name)} {shown(name, has[name])}, not "
                                   f"{shown(name, value)}" for name, value in changed.items())
        raise SystemExit(f"{checkpoint} was trained with {contradictions}: leave those options "
                         f"out to go on as it was, or add --change-options to change them")
    for name, value in changed.items():
        notice(f"{option_name(name)} {shown(name, value)} from now on, was "
               f"{shown(name, has[name])} in {checkpoint}")
    return replace(kept, **asked.options)


def settle_workers(kept: int, asked: int | None, cores: int, checkpoint: Path,
                   notice: Callable[[str], None]) -> int:
    """The workers a run plays its rounds on: those asked for, else the count the checkpoint
    `kept` (0 when it kept none: a new run, or a checkpoint from before), else every core. The
    count shapes the rounds, so another count than the kept one is said (a sound continuation,
    not the same run): the machine's cores are not a choice of what the run learns."""
    if asked is None:
        return kept or cores
    if kept and asked != kept:
        notice(f"--workers {asked} from now on, was {kept} in {checkpoint}: the rounds from "
               f"here on differ from those {kept} would play")
    return asked
