"""The search itself: its limits, compiled code against plain Python, a real game."""

from dataclasses import replace

import pytest

import engine
from engine import solver
from engine.solver import Setting
from engine.solver.settings import ALTERNATIVES, at_time_of
from tests.solver.solver_support import HARD, POSITIONS, evaluate_in_subprocess


def test_a_spent_time_budget_stops_deepening_after_the_first_pass():
    no_time = Setting("no_time", 6, 6, 0, 1e-4, 10**9, 0.0)
    search = solver.default_solver().search(HARD, no_time)
    assert (search.depth, search.nodes, search.stopped_by) == (1, 0, "time")
    one_move = replace(no_time, name="one_move", min_depth=1, max_depth=1, time_budget=60.0)
    assert list(search.values) == list(solver.default_solver().search(HARD, one_move).values)


@pytest.mark.parametrize("setting", list(solver.SETTINGS))
def test_the_node_limit_binds_before_the_time_budget(setting):
    """At each real setting the deepening ends by depth or node limit on these positions: the
    budget is far beyond the node limit's time (settings.py), so it did not decide."""
    for rows in [HARD, *POSITIONS]:
        search = solver.default_solver().search(rows, setting)
        assert search.stopped_by in {"depth", "nodes"}
        assert search.nodes <= solver.SETTINGS[setting].node_limit


def test_a_node_limit_too_small_for_a_deeper_pass_keeps_the_shallower_answer():
    tight = Setting("tight", 2, 6, 0, 1e-4, 50, 60.0)
    search = solver.default_solver().search(HARD, tight)
    assert search.stopped_by == "nodes" and search.nodes <= 50


# HARD's passes 2 to 7 moves ahead at this cut-off expand 3, 35, 201, 1359, 8576 and 41794
# positions: 239 up to 4 moves ahead, 10174 up to 6. The growth from 5 to 6 (8576 / 1359) makes
# pass 7 about 54119; the growth from 3 to 4 (201 / 35) makes pass 5 about 1154.
def deepening(node_limit: int) -> Setting:
    return Setting("deepening", 2, 7, 0, 1e-4, node_limit, 60.0)


def test_a_pass_the_growth_says_would_pass_the_node_limit_does_not_start():
    search = solver.default_solver().search(HARD, deepening(10174 + 30000))
    assert (search.depth, search.nodes, search.stopped_by) == (6, 10174, "nodes")
    assert search.dropped_nodes == 0  # pass 7 (41794 positions) would have been thrown away


def test_a_pass_that_starts_and_passes_the_node_limit_is_thrown_away():
    search = solver.default_solver().search(HARD, deepening(239 + 1200))
    assert (search.depth, search.nodes, search.stopped_by) == (4, 239, "nodes")
    assert search.dropped_nodes == 1200  # pass 5 needed 1359


SHALLOW = [Setting("shallow_2", 2, 2, 0, 1e-3, 10**9, 60.0),
           Setting("shallow_3", 3, 3, 0, 1e-2, 10**9, 60.0),
           Setting("network_2", 2, 2, 0, 1e-3, 10**9, 60.0, "network")] + [
    # every real setting's evaluation and cut-off, at a depth plain Python searches in seconds
    replace(setting, name=f"{setting.name}_at_3", min_depth=3, max_depth=3, node_limit=10**9,
            time_budget=60.0)
    for setting in (*solver.SETTINGS.values(), *ALTERNATIVES.values())
]


@pytest.mark.slow
def test_compiled_search_agrees_with_plain_python():
    compiled, plain = evaluate_in_subprocess(SHALLOW, False), evaluate_in_subprocess(SHALLOW, True)
    for compiled_values, plain_values in zip(compiled, plain):
        for by_compiled, by_python in zip(compiled_values, plain_values):
            assert max(by_compiled, key=by_compiled.get) == max(by_python, key=by_python.get)
            assert by_compiled == pytest.approx(by_python, rel=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("setting", ["fast", ALTERNATIVES["fast"]], ids=["fast", "heuristic-fast"])
def test_a_game_reaches_2048_by_legal_moves(setting):
    game = engine.Game.new(2024)
    while not game.won and not game.over:
        direction = solver.default_solver().choose(game.rows, setting)
        assert direction in game.legal_moves()
        assert game.move(direction)
    assert game.won and max(max(row) for row in game.rows) == 2048


def test_each_setting_s_time_has_a_setting_of_each_evaluation():
    for name in solver.SETTINGS:
        for evaluation in ("heuristic", "network"):
            assert at_time_of(name, evaluation).evaluation == evaluation
    assert at_time_of("fast", "network") is solver.SETTINGS["fast"]
