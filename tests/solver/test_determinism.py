"""Same position and setting, same values: across processes, searches, threads and load."""

import threading

import pytest

from engine import solver
from engine.solver import Solver, default_cache_dir
from tests.solver.solver_support import HARD, POSITIONS, evaluate_in_subprocess

GAME_SETTING = solver.SETTINGS["fast"]
PROBES = [HARD, *POSITIONS]


def values_of(a_solver: Solver, setting=GAME_SETTING) -> list[dict[str, float]]:
    return [a_solver.evaluate_moves(rows, setting) for rows in PROBES]


@pytest.fixture(scope="module")
def reference() -> dict[str, list[dict[str, float]]]:
    """Every setting's values from a solver that has searched nothing else."""
    fresh = Solver(default_cache_dir())
    return {name: values_of(fresh, setting) for name, setting in solver.SETTINGS.items()}


def test_two_processes_give_the_same_values(reference):
    settings = list(solver.SETTINGS.values())
    in_subprocess = evaluate_in_subprocess(settings, jit_disabled=False)
    for position, values_by_setting in enumerate(in_subprocess):
        for setting, values in zip(settings, values_by_setting):
            assert values == reference[setting.name][position + 1]  # PROBES[0] is HARD


def test_earlier_searches_leave_nothing_behind(reference):
    used = Solver(default_cache_dir(), max_searches=1)  # one cache: every search reuses its arrays
    for name, setting in reversed(solver.SETTINGS.items()):
        for rows in reversed(PROBES):
            used.evaluate_moves(rows, setting)
        assert values_of(used, setting) == reference[name]


def test_a_search_in_another_thread_changes_nothing(reference):
    shared = Solver(default_cache_dir(), max_searches=2)
    stop, started = threading.Event(), threading.Event()

    def search_other_positions():
        while not stop.is_set():
            for rows in PROBES:
                shared.evaluate_moves(rows, solver.SETTINGS["strong"])
                started.set()

    other = threading.Thread(target=search_other_positions)
    other.start()
    try:
        started.wait()
        assert values_of(shared) == reference["fast"]
    finally:
        stop.set()
        other.join()
    assert shared.caches.made == 2  # the two searches did run side by side


def test_a_loaded_machine_changes_nothing(reference):
    """Four threads search flat out (more than the cores) while the game's setting is probed."""
    loaded = Solver(default_cache_dir(), max_searches=3)
    stop = threading.Event()

    def load():
        while not stop.is_set():
            loaded.evaluate_moves(HARD, solver.SETTINGS["strong"])

    threads = [threading.Thread(target=load) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        for _ in range(3):
            assert values_of(loaded) == reference["fast"]
    finally:
        stop.set()
        for thread in threads:
            thread.join()


def test_concurrent_searches_make_no_more_caches_than_the_bound():
    bounded = Solver(default_cache_dir(), max_searches=2)
    threads = [threading.Thread(target=values_of, args=(bounded,)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert 1 <= bounded.caches.made <= 2
