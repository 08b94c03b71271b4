"""The late-game probes: the same start and try play the same game, two networks meet the same
tiles, the figures are what the games say, a stopped probe goes on without playing a game twice,
and the start boards are where the games first pass each boundary."""

import json

import numpy as np
import pytest

from engine.solver import Setting, weights_file
from engine.solver.ntuple import empty_network
from training import late_starts, probes
from training.late_game import BOUNDARIES, Boundary, largest_in_corner, reached

SMALL_SHAPES = ((0, 1, 2, 3), (4, 5, 8, 9))
ONE_AHEAD = Setting("one-ahead", 1, 1, 0, 1e-3, 1_000, 60.0, "network")
LATE = ((16384, 4096, 2048, 1024), (8, 16, 32, 512), (2, 4, 8, 256), (0, 2, 4, 128))


@pytest.fixture(scope="module")
def network():
    """A small network whose values favour the corner a tile sits in (so that it plays on for
    a while), the same in every stage."""
    network = empty_network(SMALL_SHAPES)
    network.weights[:] = np.random.default_rng(11).normal(0, 50, network.weights.shape)
    return network


@pytest.fixture(scope="module")
def starts():
    return [probes.Start(seed, LATE, 300_000) for seed in (1, 2)]


@pytest.mark.slow
def test_a_start_and_a_try_play_the_same_game_twice(network, starts):
    probe = probes.Probe("test", ONE_AHEAD, 2)
    first = probes.run_probe(probe, {"a": network}, starts, workers=1)["a"]
    again = probes.run_probe(probe, {"a": network}, starts, workers=2)["a"]
    key = lambda game: (game["start"], game["attempt"])  # noqa: E731
    without_time = [{**game, "cpu_seconds": 0} for game in sorted(first, key=key)]
    assert without_time == [{**game, "cpu_seconds": 0} for game in sorted(again, key=key)]
    assert len(first) == 4 and len({game["points"] for game in first}) > 1  # tries differ
    assert all(game["points"] > 0 and game["largest"] >= 16384 for game in first)


def test_two_networks_are_compared_on_the_same_starts_and_tiles(network, starts):
    probe = probes.Probe("test", ONE_AHEAD, 2)
    games = probes.run_probe(probe, {"a": network, "b": network}, starts, workers=2)
    assert probes.paired_line(games["a"], games["b"]).startswith(
        "paired over 4: +0 points added (se 0), ahead in 0")


def test_a_probe_given_its_log_plays_only_the_games_it_lacks(network, starts, tmp_path):
    log = tmp_path / "probe.jsonl"
    probe = probes.Probe("test", ONE_AHEAD, 1)
    probes.run_probe(probe, {"a": network}, starts[:1], workers=1, log=log)
    done = probes.logged_games(log, "test", ["a"])
    games = probes.run_probe(probe, {"a": network}, starts, workers=1, done=done, log=log)
    assert len(log.read_text().splitlines()) == 2  # the first start's game was not replayed
    assert sorted(game["start"] for game in games["a"]) == [1, 2]
    assert probes.logged_games(log, "other probe", ["a"]) == {"a": []}


def test_a_log_keeps_each_set_of_boards_games_apart(network, starts, tmp_path):
    log = tmp_path / "probe.jsonl"
    probe = probes.Probe("test", ONE_AHEAD, 1)
    second_set = [probes.Start(start.seed, start.rows, start.score, "16384+8192")
                  for start in starts]
    first = probes.run_probe(probe, {"a": network}, starts, workers=1, log=log)["a"]
    done = probes.logged_games(log, "test", ["a"])
    second = probes.run_probe(probe, {"a": network}, second_set, workers=1, done=done, log=log)
    assert len(log.read_text().splitlines()) == 4  # the same seeds, another set: played too
    assert {game["boards"] for game in first} == {"16384"}
    assert {game["boards"] for game in second["a"]} == {"16384+8192"}
    done = probes.logged_games(log, "test", ["a"])
    assert probes.on_starts(done["a"], probe, second_set) == second["a"]


def game(points, largest, second_chain, late_positions, cornered, attempt=0, start=1):
    return {"boards": "16384", "start": start, "attempt": attempt, "points": points,
            "moves": 100, "largest": largest, "second_chain": second_chain,
            "late_positions": late_positions, "cornered": cornered, "cpu_seconds": 0.2}


def test_the_summary_counts_what_the_games_did():
    games = [game(100_000, 16384, True, 30, 3), game(300_000, 32768, True, 10, 7),
             game(50_000, 16384, False, 60, 0)]
    summary = probes.Summary.of(games)
    assert (summary.games, summary.points, summary.second_chain, summary.goal) == (
        3, 150_000, 2, 1)
    assert summary.points_error == pytest.approx(np.std([1e5, 3e5, 5e4], ddof=1) / np.sqrt(3))
    assert summary.cornered == pytest.approx(10 / 100)  # of all late positions together
    assert summary.ms_a_move == pytest.approx(2.0)
    assert "second 8192 67%, 32768 33% (1)" in summary.line()


def test_the_paired_difference_is_taken_game_by_game():
    ours = [game(100, 16384, True, 1, 1, start=1), game(400, 32768, True, 1, 1, start=2),
            game(900, 16384, True, 1, 1, start=3)]
    theirs = [game(50, 16384, True, 1, 1, start=1), game(450, 16384, True, 1, 1, start=2)]
    assert probes.paired_line(ours, theirs) == (
        "paired over 2: +0 points added (se 50), ahead in 1, 32768 1 against 0")


def test_a_report_prints_the_logged_games_and_plays_none(tmp_path, capsys):
    paths = [tmp_path / "a.npz", tmp_path / "b.npz"]
    for path, weight in zip(paths, (1.0, 2.0)):
        network = empty_network(SMALL_SHAPES)
        network.weights[:] = weight
        weights_file.save(path, network, {"seed": 1, "rounds": 0, "games": 0, "moves": 0})
    labels = [probes.file_label(path) for path in paths]
    log = tmp_path / "final.jsonl"
    logged = [(labels[0], game(200_000, 32768, True, 10, 10, start=1)),
              (labels[1], game(150_000, 16384, True, 10, 0, start=1)),
              (labels[0], game(100_000, 16384, False, 10, 10, start=2)),
              (labels[0], game(900_000, 32768, True, 10, 10, start=999))]  # not a start board
    log.write_text("".join(json.dumps({"network": label, "probe": "final", **played}) + "\n"
                           for label, played in logged))
    written = log.read_text()
    probes.main(["final", "--weights", str(paths[0]), "--against", str(paths[1]),
                 "--log", str(log), "--report"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(f"{labels[0]}: 2 games: points added 150,000 (se 50,000)")
    assert lines[2].startswith(f"{labels[1]}: 1 games: points added 150,000")
    assert lines[3] == (f"{labels[0]} against {labels[1]}: paired over 1: +50,000 points added"
                        " (se nan), ahead in 1, 32768 1 against 0")
    assert log.read_text() == written  # nothing played
    moved = tmp_path / "elsewhere"  # the same files from another folder: the same networks
    moved.mkdir()
    for path in paths:
        (moved / path.name).write_bytes(path.read_bytes())
    probes.main(["final", "--weights", str(moved / "a.npz"), "--against", str(moved / "b.npz"),
                 "--log", str(log), "--report"])
    assert "paired over 1: +50,000" in capsys.readouterr().out


def test_boundaries_and_corners_are_read_from_the_tiles():
    assert reached(LATE, BOUNDARIES[0]) and not reached(LATE, BOUNDARIES[1])
    assert reached(((32768, 8192, 0, 0),) + LATE[1:], BOUNDARIES[1])
    assert largest_in_corner(LATE)
    assert not largest_in_corner(((2, 16384, 0, 0),) + LATE[1:])


def test_the_start_boards_are_the_first_past_each_boundary(monkeypatch, tmp_path):
    small = (Boundary("256", 256), Boundary("256+128", 256, 128))
    monkeypatch.setattr(late_starts, "BOUNDARIES", small)
    late_starts.start_worker()
    found = late_starts.boundary_positions(3)
    first, second = (found[boundary.name] for boundary in small)
    assert found["seed"] == 3 and 0 < first["moves"] <= second["moves"]
    assert max(map(max, first["rows"])) == 256 and reached(second["rows"], small[1])
    path = tmp_path / "starts.json"
    path.write_text(json.dumps({"setting": "fast", "games": [found]}))
    assert probes.late_starts("256+128", path) == [
        probes.Start(3, tuple(map(tuple, second["rows"])), second["score"], "256+128")]
