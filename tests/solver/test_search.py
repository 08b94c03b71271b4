"""The search itself: time budget, compiled code against plain Python, a real game."""

import json
import os
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

import pytest

import engine
from engine import solver
from engine.solver import Setting

REPOSITORY = Path(__file__).resolve().parents[2]
POSITIONS = [
    [[2, 2, 4, 8], [0, 0, 0, 16], [0, 2, 0, 32], [0, 0, 4, 64]],
    [[0, 0, 2, 2], [0, 4, 8, 16], [2, 32, 64, 128], [256, 512, 1024, 2048]],
    [[4, 2, 8, 2], [16, 0, 4, 32], [2, 64, 0, 128], [4096, 2048, 256, 8]],
    [[2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64], [0, 0, 0, 65536]],
    [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 4, 0], [0, 0, 0, 0]],
]
# A hard mid-game position: many distinct tiles and a few empty cells make a deep search.
HARD = [[2, 8, 2, 4], [16, 4, 64, 8], [2, 128, 32, 512], [0, 1024, 4096, 0]]


def test_the_time_budget_stops_a_search_that_is_allowed_too_much_work(monkeypatch):
    budget = 0.05
    unbounded = Setting("unbounded", 12, 12, 0, 1e-9, 10**12, budget)
    monkeypatch.setitem(solver.SETTINGS, "unbounded", unbounded)
    for _ in range(3):
        started = time.perf_counter()
        choice = solver.choose(HARD, "unbounded")
        assert time.perf_counter() - started < 4 * budget + 0.1
        assert choice is not None


@pytest.mark.parametrize("setting", list(solver.SETTINGS))
def test_configured_settings_stay_within_their_budget(setting):
    budget = solver.SETTINGS[setting].time_budget
    started = time.perf_counter()
    solver.choose(HARD, setting)
    assert time.perf_counter() - started < 4 * budget + 0.1


SHALLOW = [Setting("shallow_2", 2, 2, 0, 1e-3, 10**9, 60.0),
           Setting("shallow_3", 3, 3, 0, 1e-2, 10**9, 60.0)]
EVALUATE_ALL = """
import json, sys
from engine import solver
job = json.load(sys.stdin)
settings = [solver.Setting(**fields) for fields in job["settings"]]
solver.SETTINGS.update({setting.name: setting for setting in settings})
print(json.dumps([[solver.evaluate_moves(rows, setting.name) for setting in settings]
                  for rows in job["positions"]]))
"""


def evaluate_in_subprocess(jit_disabled: bool) -> list:
    """Values of every position under the shallow settings, computed in a fresh interpreter."""
    job = {"settings": [asdict(setting) for setting in SHALLOW], "positions": POSITIONS}
    environment = dict(os.environ, NUMBA_DISABLE_JIT="1" if jit_disabled else "0")
    result = subprocess.run(
        [sys.executable, "-c", EVALUATE_ALL], input=json.dumps(job), cwd=REPOSITORY,
        env=environment, capture_output=True, text=True, check=True, timeout=120,
    )
    return json.loads(result.stdout)


def test_compiled_search_agrees_with_plain_python():
    compiled, plain = evaluate_in_subprocess(False), evaluate_in_subprocess(True)
    for compiled_values, plain_values in zip(compiled, plain):
        for by_compiled, by_python in zip(compiled_values, plain_values):
            assert max(by_compiled, key=by_compiled.get) == max(by_python, key=by_python.get)
            assert by_compiled == pytest.approx(by_python, rel=1e-9)


def test_plays_a_legal_game_and_builds_a_decent_tile():
    game = engine.Game.new(2024)
    while game.moves < 400 and not game.over:
        if game.awaiting_choice:
            game.keep_playing()
        direction = solver.choose(game.rows)
        assert direction in game.legal_moves()
        assert game.move(direction)
    assert max(max(row) for row in game.rows) >= 256
