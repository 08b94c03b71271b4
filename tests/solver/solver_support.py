"""Positions and a fresh-interpreter evaluation shared by the solver tests."""

import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

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


EVALUATE_ALL = """
import json, sys
from engine import solver
job = json.load(sys.stdin)
settings = [solver.Setting(**fields) for fields in job["settings"]]
print(json.dumps([[solver.evaluate_moves(rows, setting) for setting in settings]
                  for rows in job["positions"]]))
"""


def evaluate_in_subprocess(settings: list[Setting], jit_disabled: bool) -> list:
    """Values of every position under the settings, computed in a fresh interpreter."""
    job = {"settings": [asdict(setting) for setting in settings], "positions": POSITIONS}
    environment = dict(os.environ, NUMBA_DISABLE_JIT="1" if jit_disabled else "0")
    result = subprocess.run(
        [sys.executable, "-c", EVALUATE_ALL], input=json.dumps(job), cwd=REPOSITORY,
        env=environment, capture_output=True, text=True, check=True, timeout=300,
    )
    return json.loads(result.stdout)
