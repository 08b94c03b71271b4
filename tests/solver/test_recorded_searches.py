"""The heuristic search repeats searches recorded from the search of commit ac95827, the last
before it was compiled once per evaluation: the same values, depth and node count on every 40th
position of a game the solver played from seed 1001. The setting is "fast" without a node limit,
so the deepening rule plays no part and both searches expand exactly the same positions.

recorded_searches.json was made once by running that commit's Solver(None).search with the
recorded setting on the recorded positions (values of illegal moves as null).
"""

import json
import math
from pathlib import Path

from engine.solver import Setting, Solver

RECORDED = json.loads((Path(__file__).parent / "recorded_searches.json").read_text())


def test_the_search_repeats_the_recorded_searches():
    setting, searcher = Setting(**RECORDED["setting"]), Solver(None, weights=None)
    for rows, recorded in zip(RECORDED["positions"], RECORDED["searches"], strict=True):
        search = searcher.search(rows, setting)
        assert (search.best, search.depth, search.nodes) == (
            recorded["best"], recorded["depth"], recorded["nodes"])
        assert list(search.values) == [-math.inf if value is None else value
                                       for value in recorded["values"]]
