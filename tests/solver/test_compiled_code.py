"""The compiled search follows its sources: an edit of a module the search inlines (here the
heuristic, which the settings' alternatives play with) is compiled afresh, not served from
numba's cache of the old code."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.solver import locations
from tests.solver.solver_support import REPOSITORY

BOARD = [[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]]
EVALUATE = f"""
import json
from engine.solver import Solver, default_cache_dir
from engine.solver.settings import ALTERNATIVES
print(json.dumps(Solver(default_cache_dir(), weights=None).evaluate_moves({BOARD},
                                                                       ALTERNATIVES["strong"])))
"""
# Columns count twice in the edited heuristic: every value changes.
HEURISTIC_LINE = "        total += line_scores[rows[i]] + line_scores[columns[i]]"
EDITED_LINE = "        total += line_scores[rows[i]] + 2 * line_scores[columns[i]]"


def evaluate(checkout: Path, cache: Path) -> dict[str, float]:
    """The values of BOARD computed by the engine package of `checkout`, in a fresh interpreter."""
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(cache / "numba"),
                       SOLVER_CACHE_DIR=str(cache / "tables"),
                       PYTHONPATH=str(checkout))
    result = subprocess.run([sys.executable, "-c", EVALUATE], cwd=checkout, env=environment,
                            capture_output=True, text=True, check=True, timeout=300)
    return json.loads(result.stdout)


@pytest.mark.slow
def test_editing_an_inlined_module_compiles_afresh(tmp_path):
    checkout, cache = tmp_path / "checkout", tmp_path / "cache"
    shutil.copytree(REPOSITORY / "engine", checkout / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    before = evaluate(checkout, cache)
    assert evaluate(checkout, cache) == before  # the same code, found again
    heuristic = checkout / "engine" / "solver" / "heuristic.py"
    source = heuristic.read_text()
    assert source.count(HEURISTIC_LINE) == 1
    heuristic.write_text(source.replace(HEURISTIC_LINE, EDITED_LINE))
    after = evaluate(checkout, cache)
    assert after.keys() == before.keys()
    assert all(after[direction] != before[direction] for direction in before)
    assert len(list((cache / "numba").iterdir())) == 2  # one folder of compiled code per version
    heuristic.write_text(source)
    assert evaluate(checkout, cache) == before


def test_compiled_code_is_kept_outside_the_source_tree(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("SOLVER_CACHE_DIR", str(tmp_path))
    assert locations.compiled_code_dir().parent == tmp_path / "compiled"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    assert locations.compiled_code_dir().parent == tmp_path / "numba"
