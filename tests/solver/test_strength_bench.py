"""The strength bench's candidates, its games log, which lets a long run be taken up again, and
its results file, which runs of different settings share."""

import argparse
import dataclasses
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.solver_strength import GamesLog, merge_into, variant
from engine.solver.settings import ALTERNATIVES, SETTINGS

KNOWN = {**SETTINGS, **{setting.name: setting for setting in ALTERNATIVES.values()}}
GAME = {"setting": "deeper", "seed": 7, "score": 1234, "max_tile": 128, "move_seconds": [0.01],
        "move_cpu_seconds": [0.01], "cut_by_time": 0, "load_average": 1.0}


def test_a_variant_is_its_base_with_the_named_fields_changed():
    made = variant("deeper=strong:min_depth=6,max_depth=7,probability_cutoff=1e-4",
                   KNOWN)
    assert made == dataclasses.replace(SETTINGS["strong"], name="deeper", min_depth=6,
                                       max_depth=7, probability_cutoff=1e-4)


@pytest.mark.parametrize("text", ["deeper=slow:min_depth=6", "=fast:min_depth=6",
                                  "deeper=fast:depth=6", "deeper=fast:name=other"])
def test_a_variant_of_no_setting_or_field_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError):
        variant(text, KNOWN)


def test_a_logged_game_is_found_again_only_for_what_decides_its_moves(tmp_path):
    path = tmp_path / "games.jsonl"
    setting = variant("deeper=strong:min_depth=6", KNOWN)
    GamesLog(path, network_games=1000).add(setting, None, GAME)

    reread = GamesLog(path, network_games=1000)
    assert reread.find(setting, 7, None)["score"] == 1234
    assert reread.find(setting, 8, None) is None
    assert reread.find(setting, 7, 500) is None
    assert reread.find(dataclasses.replace(setting, node_limit=1), 7, None) is None
    assert GamesLog(path, network_games=2000).find(setting, 7, None) is None


def test_a_heuristic_game_stays_logged_when_the_network_changes(tmp_path):
    path = tmp_path / "games.jsonl"
    heuristic = variant("plain=strong:evaluation=heuristic", KNOWN)
    GamesLog(path, network_games=1000).add(heuristic, None, {**GAME, "setting": "plain"})
    assert GamesLog(path, network_games=2000).find(heuristic, 7, None) is not None


def test_without_a_file_nothing_is_kept(tmp_path):
    log = GamesLog(None, network_games=1000)
    log.add(SETTINGS["fast"], None, GAME)
    assert log.find(SETTINGS["fast"], 7, None) is None


def test_a_line_cut_off_when_a_run_stopped_is_played_again(tmp_path):
    path = tmp_path / "games.jsonl"
    setting = SETTINGS["fast"]
    log = GamesLog(path, network_games=1000)
    log.add(setting, None, GAME)
    log.add(setting, None, {**GAME, "seed": 8})
    path.write_text(path.read_text()[:-40])
    reread = GamesLog(path, network_games=1000)
    assert reread.find(setting, 7, None) is not None
    assert reread.find(setting, 8, None) is None


def test_runs_of_different_settings_merge_into_one_file_and_leave_nothing_beside_it(tmp_path):
    path = tmp_path / "results" / "strength.json"
    names = [f"setting-{number}" for number in range(8)]
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda name: merge_into(path, name, {"games": 12}), names))
    merged = json.loads(path.read_text())
    assert sorted(entry for section in merged.values() for entry in section) == names
    assert [entry.name for entry in path.parent.iterdir()] == ["strength.json"]
