"""Load the solver's measured strength for the solver page: ``solver_strength.json`` beside this
module, written by bench/solver_strength.py and shipped with the app; and how many games the
shipped network trained on."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from flask import current_app

from engine.solver.weights_file import SHIPPED, training_counters

CONFIG_KEY = "SOLVER_STRENGTH_FILE"
DEFAULT_PATH = Path(__file__).resolve().with_name("solver_strength.json")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SettingResult:
    """What one solver setting achieved over a series of games."""

    name: str
    games: int
    first_seed: int
    reached: dict[int, float]
    mean_score: float
    median_score: float
    median_ms_per_move: float
    p95_ms_per_move: float
    moves_per_second: float
    measured_on: date
    max_moves: int | None = None  # set when every game was stopped after this many moves


@dataclass(frozen=True)
class StrengthReport:
    """Every measured setting, and the tile values they were measured against."""

    settings: tuple[SettingResult, ...]

    @property
    def tiles(self) -> tuple[int, ...]:
        """Tile values present in any setting's `reached` table, ascending."""
        return tuple(sorted({tile for s in self.settings for tile in s.reached}))

    @property
    def capped(self) -> bool:
        """True when some games were cut short by a move limit."""
        return any(s.max_moves is not None for s in self.settings)


def report_path() -> Path:
    """Where the current app expects the benchmark file (config key SOLVER_STRENGTH_FILE)."""
    return Path(current_app.config.get(CONFIG_KEY) or DEFAULT_PATH)


def load_strength_report(path: Path | None = None) -> StrengthReport | None:
    """Read the benchmark file; None when it is missing or not in the expected shape."""
    path = path or report_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return parse_report(data)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as error:
        log.warning("ignoring solver strength file %s: %s", path, error)
        return None


def parse_report(data: dict[str, Any]) -> StrengthReport:
    """Build a report from the decoded JSON; KeyError/ValueError/TypeError on a bad shape."""
    settings = tuple(_parse_setting(name, entry) for name, entry in data["settings"].items())
    if not settings:
        raise ValueError("no settings measured")
    return StrengthReport(settings)


def _parse_setting(name: str, entry: dict[str, Any]) -> SettingResult:
    reached = {int(tile): float(share) for tile, share in entry["reached"].items()}
    if any(not 0.0 <= share <= 1.0 for share in reached.values()):
        raise ValueError(f"{name}: a share of games is outside 0..1")
    return SettingResult(
        name=str(name),
        games=int(entry["games"]),
        first_seed=int(entry["first_seed"]),
        reached=dict(sorted(reached.items())),
        mean_score=float(entry["mean_score"]),
        median_score=float(entry["median_score"]),
        median_ms_per_move=float(entry["median_ms_per_move"]),
        p95_ms_per_move=float(entry["p95_ms_per_move"]),
        moves_per_second=float(entry["moves_per_second"]),
        measured_on=date.fromisoformat(entry["measured_on"]),
        max_moves=int(entry["max_moves"]) if entry.get("max_moves") is not None else None,
    )


@cache
def network_games() -> int:
    """How many self-play games trained the network the solver ships with (read once)."""
    return training_counters(SHIPPED)["games"]
