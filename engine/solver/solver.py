"""The Solver object: its line tables, its transposition caches, and deepening within limits."""

import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine import DIRECTIONS
from engine.solver import weights_file
from engine.solver.board import encode
from engine.solver.cache import DEFAULT_BITS, CachePool
from engine.solver.ntuple import Network
from engine.solver.search import move_values
from engine.solver.settings import SETTINGS, Setting
from engine.solver.tables import load_line_tables
from engine.validation import exponent_rows

DEFAULT_MAX_SEARCHES = 2  # one per core of the machine it was measured on
WARM_UP_BOARD = [[2, 4, 8, 16], [0, 2, 0, 4], [0, 0, 2, 0], [0, 0, 0, 2]]


@dataclass(frozen=True)
class Search:
    """What one root search found and what stopped it deepening.

    `values` has one entry per direction (in engine.DIRECTIONS order, -inf when illegal);
    `depth` is the deepest pass that finished; `nodes` counts the positions all finished passes
    expanded; `stopped_by` is "depth" (the setting's depth for this board was reached), "nodes"
    (one more pass would pass the node limit) or "time" (the time budget was spent);
    `dropped_nodes` counts the positions of a pass that started and was cut by the node limit
    (work thrown away; 0 when the growth of the passes said in time not to start it).
    """

    values: np.ndarray
    depth: int
    nodes: int
    stopped_by: str
    dropped_nodes: int = 0

    @property
    def best(self) -> str | None:
        """The direction of the highest value (the first of equal ones), None if none is legal."""
        index = int(np.argmax(self.values))
        return DIRECTIONS[index] if self.values[index] > -np.inf else None


class Solver:
    """Expectimax search with its own tables, network and a bounded set of transposition caches.

    Thread-safe: tables and network are only read, and each running search borrows a cache of
    its own; at most `max_searches` run at once (more wait), so memory stays at the tables, the
    network and max_searches caches of 2**cache_bits positions (16 MiB each at 19 bits). Line
    tables are kept in `cache_dir` between runs (None: built in memory every time). The network
    is read from `weights` (a weights file, or a Network already in memory; None: no network,
    heuristic settings only) when a search first needs it, or here when one of SETTINGS plays
    with it; a missing or invalid file raises weights_file.WeightsError then, before any search
    with it.
    """

    def __init__(self, cache_dir: Path | None = None, *,
                 weights: Path | Network | None = weights_file.SHIPPED,
                 max_searches: int = DEFAULT_MAX_SEARCHES, cache_bits: int = DEFAULT_BITS
                 ) -> None:
        tables = load_line_tables(cache_dir)
        self._slides, self._points = tables.slides, tables.points
        self._cache_dir, self._weights = cache_dir, weights
        # Per evaluation, the search's (points, table, placements, late_top): see search.py.
        self._evaluations = {"heuristic": (None, tables.line_scores, None, None)}
        self._loading = threading.Lock()
        if any(setting.evaluation == "network" for setting in SETTINGS.values()):
            self._load_network()
        self.caches = CachePool(max_searches, cache_bits)

    def _load_network(self) -> None:
        """Read the network, once, if this solver has one."""
        with self._loading:
            if self._weights is not None and "network" not in self._evaluations:
                network = (self._weights if isinstance(self._weights, Network)
                           else weights_file.load(self._weights, unpack_dir=self._cache_dir))
                self._evaluations["network"] = (self._points, network.weights,
                                                network.placements, network.late_top)

    def _evaluation(self, setting: Setting) -> tuple:
        """The search's arguments for the setting's evaluation (the network read on first
        use)."""
        if setting.evaluation == "network":
            self._load_network()
        try:
            return self._evaluations[setting.evaluation]
        except KeyError:
            raise ValueError(f"setting {setting.name!r} needs the {setting.evaluation} "
                             "evaluation, which this solver was made without") from None

    def search(self, rows: object, setting: "str | Setting" = "fast") -> Search:
        """Iterative deepening up to the setting's depth for this board, within its limits.

        All passes together expand at most the setting's node limit. A pass does not start when
        the growth of the two passes before it says it would pass the limit (next_pass_nodes);
        one that starts and passes it all the same is dropped. Either way the previous pass
        decides. A new pass starts only while the time spent is under the time budget; it is
        checked between passes only, never inside one.
        """
        exponents, chosen = exponent_rows(rows), resolve_setting(setting)
        evaluation = self._evaluation(chosen)
        board = encode(exponents)
        distinct = len({exponent for row in exponents for exponent in row if exponent})
        with self.caches.borrowed() as cache:
            cache.start_search()

            def run(depth: int, node_limit: int) -> np.ndarray:
                cache.start_pass(node_limit)
                return move_values(board, depth, chosen.probability_cutoff, self._slides,
                                   *evaluation, cache.keys, cache.values, cache.state)

            values, depth, nodes_used = run(1, 1), 1, 0  # one move ahead expands nothing
            # The clock starts now: neither waiting for a cache nor compiling the search (the
            # first pass of a process's first search) counts against the time budget.
            started = time.perf_counter()
            stopped_by, dropped_nodes, pass_nodes = "depth", 0, []
            for deeper in range(2, chosen.depth_for(distinct) + 1):
                if time.perf_counter() - started > chosen.time_budget:
                    stopped_by = "time"
                    break
                node_limit = chosen.node_limit - nodes_used
                if next_pass_nodes(pass_nodes) >= node_limit:
                    stopped_by = "nodes"
                    break
                deeper_values = run(deeper, node_limit)
                if cache.nodes >= node_limit:
                    stopped_by, dropped_nodes = "nodes", cache.nodes
                    break
                values, depth, nodes_used = deeper_values, deeper, nodes_used + cache.nodes
                pass_nodes.append(cache.nodes)
        return Search(values, depth, nodes_used, stopped_by, dropped_nodes)

    def evaluate_moves(self, rows: object, setting: "str | Setting" = "fast") -> dict[str, float]:
        """Value of each legal move (higher is better; compare values within one call only)."""
        values = self.search(rows, setting).values
        return {
            direction: float(value) for direction, value in zip(DIRECTIONS, values)
            if value > -np.inf
        }

    def choose(self, rows: object, setting: "str | Setting" = "fast") -> str | None:
        """The best move for a board, or None when no move is legal."""
        return self.search(rows, setting).best

    def warm_up(self) -> None:
        """Load the compiled search for each evaluation loaded and make one cache, so the first
        hint is fast. A two-move search runs the same compiled code as a deeper one."""
        for evaluation in list(self._evaluations):
            self.choose(WARM_UP_BOARD, Setting("warm-up", 2, 2, 0, 1e-3, 1_000, 1.0, evaluation))


def next_pass_nodes(pass_nodes: list[int]) -> float:
    """The positions the next deepening pass will likely expand, from those of the finished
    passes (from 2 moves ahead on): the last one times its growth over the one before it.
    0 (start it) while fewer than two are known."""
    if len(pass_nodes) < 2 or pass_nodes[-2] == 0:
        return 0.0
    return pass_nodes[-1] * pass_nodes[-1] / pass_nodes[-2]


def resolve_setting(setting: object) -> Setting:
    """A Setting as given, or the one of SETTINGS with this name; ValueError otherwise."""
    if isinstance(setting, Setting):
        return setting
    if not isinstance(setting, str) or setting not in SETTINGS:
        raise ValueError(f"unknown setting {setting!r}; expected one of {tuple(SETTINGS)}")
    return SETTINGS[setting]
