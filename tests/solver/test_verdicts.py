"""What the values of a position's moves say to a player: points given away with the network,
best / close / risky with the heuristic."""

import pytest

from engine.solver import SETTINGS
from engine.solver.settings import ALTERNATIVES
from engine.solver.verdicts import (RISKY_SHARE, in_points, points_given_away,
                                    share_given_away, verdict)


def test_only_the_networks_values_are_points():
    settings = (*SETTINGS.values(), *ALTERNATIVES.values())
    assert {setting.name for setting in settings if in_points(setting)} == {
        "fast", "strong"}


def test_points_given_away_are_the_distance_to_the_best_best_first():
    assert list(points_given_away({"up": 900.0, "left": 2140.0, "down": 900.0}).items()) == [
        ("left", 0.0), ("up", 1240.0), ("down", 1240.0)]
    assert points_given_away({}) == {}


@pytest.mark.parametrize(("value", "expected"), [
    (1000.0, "best"), (1001.0, "best"), (1000.0 * (1 - RISKY_SHARE / 2), "close"),
    (1000.0 * (1 - RISKY_SHARE), "risky"), (0.0, "risky"),
])
def test_a_heuristic_move_is_best_close_or_risky_by_the_share_it_gives_away(value, expected):
    assert verdict(1000.0, value) == expected


def test_when_every_move_loses_nothing_is_given_away():
    assert share_given_away(0.0, 0.0) == 0.0 and verdict(0.0, 0.0) == "best"
