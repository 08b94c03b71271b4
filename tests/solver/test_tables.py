"""The line tables' cache directory: configurable, outside the source tree, never required."""

from pathlib import Path

import numpy as np
import pytest

import engine
from engine.solver import Solver
from engine.solver.locations import default_cache_dir
from engine.solver.tables import load_line_tables

SOURCE_TREE = Path(engine.__file__).resolve().parent
BOARD = [[2, 4, 8, 16], [0, 2, 0, 4], [0, 0, 2, 0], [0, 0, 0, 2]]


def same_tables(first, second) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(vars(first).values(), vars(second).values()))


@pytest.mark.slow
def test_tables_are_kept_in_the_given_directory_and_read_back(tmp_path):
    built = load_line_tables(tmp_path)
    (stored,) = tmp_path.glob("line-tables-*.npz")
    written = stored.stat().st_mtime_ns
    assert same_tables(load_line_tables(tmp_path), built)
    assert stored.stat().st_mtime_ns == written
    assert same_tables(load_line_tables(None), built)


@pytest.mark.slow
def test_an_unusable_directory_builds_the_tables_in_memory(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    solver = Solver(blocker / "cache")
    assert solver.choose(BOARD) in {"up", "down", "left", "right"}
    assert blocker.read_text() == "not a directory"


@pytest.mark.slow
def test_a_damaged_stored_file_is_rebuilt(tmp_path):
    built = load_line_tables(tmp_path)
    (stored,) = tmp_path.glob("line-tables-*.npz")
    stored.write_bytes(b"damaged")
    assert same_tables(load_line_tables(tmp_path), built)
    assert stored.stat().st_size > 1000


def test_the_default_directory_is_configurable_and_outside_the_source_tree(monkeypatch, tmp_path):
    monkeypatch.setenv("SOLVER_CACHE_DIR", str(tmp_path / "solver"))
    assert default_cache_dir() == tmp_path / "solver"
    monkeypatch.delenv("SOLVER_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "game2048-solver"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert not default_cache_dir().resolve().is_relative_to(SOURCE_TREE)
