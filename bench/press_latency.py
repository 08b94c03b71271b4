"""Presses on a slow link: from the first of six quick key presses to the frame in which tiles
first move, to the frame in which that press's new tile first shows, and to the board painted
with all six moves; for this checkout's page against an earlier commit's, side by side in the
same run.

    python -m bench.press_latency [--against e0edf07] [--rounds 7] [--latencies 0,100,300]
                                  [--presses 6] [--gap-ms 30]

The default baseline, `e0edf07`, is the last page that waited for the answer before moving the
tiles; it runs on the test set-up (older baselines need the `bench` extra).

Each side is served by gunicorn as production does (`live_server.production_server`; the
earlier commit extracted with `git archive` into a temporary directory). Each trial opens a fresh
Chromium context (Debian's /usr/bin/chromium, no service worker), puts the same seeded game in
its session (through that side's own store code), adds the latency with Chromium's network
emulation (CDP `Network.emulateNetworkConditions`, added to every request), and presses six
arrow keys, each legal in turn, `--gap-ms` apart (keydown events dispatched by the page's own
timers: keyboard presses sent one by one from here over CDP came 60 to 80 ms apart on a loaded
machine). An init script in the page notes the first
keydown and, from a MutationObserver, the first time after it that a tile is given another cell
(tiles moving), that a new tile is added (the first press's new tile: the presses after it wait
for its answer), and that the move counter shows all six moves; the frame after each
(requestAnimationFrame) is when it was painted. Rounds alternate the sides and the latencies;
per side and latency the median of the rounds is printed, with the /move requests a trial sent.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from engine import Game
from harness import ROOT
from harness.checkout import unpacked
from harness.live_server import production_server

CHROMIUM = "/usr/bin/chromium"
SEED = 2048
#: The order in which each press takes the first direction that moves something.
PREFERENCE = ("left", "down", "right", "down", "left", "up")
ARROWS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}

# Notes performance.now() at the first keydown, and the frames in which (after it) a tile first
# changes cell, a new tile is first added, and #moves first reads window.benchTarget with the
# board drawn (not drawing an answer's moves in turn).
TIMER = """
window.bench = { first: null, keys: [], moving: null, newTile: null, painted: null };
const seen = new Set();
const paintedOnce = (name) => {
  if (seen.has(name)) return;
  seen.add(name);
  requestAnimationFrame(() => { window.bench[name] = performance.now(); });
};
document.addEventListener("keydown", () => {
  window.bench.keys.push(performance.now());
  if (window.bench.first === null) window.bench.first = performance.now();
}, true);
new MutationObserver((records) => {
  if (window.bench.first === null) return;
  for (const { type, target, attributeName, addedNodes } of records) {
    const tile = target instanceof Element && target.classList.contains("tile");
    if (type === "attributes" && tile && ["data-row", "data-col"].includes(attributeName)) {
      paintedOnce("moving");
    }
    for (const node of addedNodes) {
      if (node instanceof Element && node.matches(".tile[data-new]")) paintedOnce("newTile");
    }
  }
  const moves = document.getElementById("moves");
  const drawing = document.querySelector("#board[data-drawing]"); // moves of one answer in turn
  if (moves && moves.textContent === String(window.benchTarget) && !drawing) paintedOnce("painted");
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
                       attributeFilter: ["data-row", "data-col", "data-drawing"] });
"""

#: What a trial times from the first press, in the order printed.
MEASURES = {"moving": "tiles move", "newTile": "new tile", "painted": "all painted"}

# Presses the keys `gap` ms apart from inside the page (keydown events as a keyboard sends them),
# so the gaps do not depend on how quickly this process reaches the browser.
PRESS = """({ keys, gap }) => keys.forEach((key, index) => setTimeout(() => {
  const press = { key, code: key, bubbles: true, cancelable: true };
  document.body.dispatchEvent(new KeyboardEvent("keydown", press));
  document.body.dispatchEvent(new KeyboardEvent("keyup", press));
}, index * gap))"""

# Run by each side's own Python code (cwd: its checkout): puts Game.new(seed) in a stored game.
SEATER = """
import sys, tempfile
from engine import Game
from webapp import create_app
app = create_app({"SQLITE_PATH": sys.argv[1], "SECRET_KEY": "bench", "SOLVER_WARM_UP": False,
                  "INSTANCE_PATH": tempfile.mkdtemp()})
games = app.extensions["games"]
for line in sys.stdin:
    game_id, seed = line.split()
    record = games.get(game_id)
    record.game = Game.new(int(seed))
    print("ok" if games.replace(record) else "conflict", flush=True)
"""


def presses_for(seed: int, count: int) -> list[str]:
    """`count` directions, each legal in turn in the game Game.new(seed)."""
    game, directions = Game.new(seed), []
    for step in range(count):
        legal = game.legal_moves()
        direction = next(d for d in PREFERENCE[step % len(PREFERENCE):] + PREFERENCE if d in legal)
        game.move(direction)
        directions.append(direction)
    return directions


@dataclass
class Side:
    """One checkout served by gunicorn, and a process that seats seeded games in its store."""

    name: str
    url: str
    seater: subprocess.Popen

    def seat(self, game_id: str, seed: int) -> None:
        self.seater.stdin.write(f"{game_id} {seed}\n")
        self.seater.stdin.flush()
        answer = self.seater.stdout.readline().strip()
        if answer != "ok":
            raise RuntimeError(f"{self.name}: seating the game answered {answer!r}")


@contextmanager
def served(name: str, root: Path) -> Iterator[Side]:
    """The checkout at `root` on gunicorn, with its seater."""
    with tempfile.TemporaryDirectory() as scratch:
        database = str(Path(scratch) / "games.sqlite3")
        with production_server(root, SQLITE_PATH=database, SOLVER_WARM_UP="0") as server:
            seater = subprocess.Popen([sys.executable, "-c", SEATER, database], cwd=root,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            try:
                yield Side(name, f"http://127.0.0.1:{server.port}", seater)
            finally:
                seater.stdin.close()
                seater.wait(timeout=30)


def trial(browser: Browser, side: Side, latency_ms: int, directions: list[str],
          gap_ms: int) -> tuple[dict[str, float], int, float]:
    """(ms from the first press to each of MEASURES, /move requests sent, mean ms between two
    presses)."""
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.add_init_script(TIMER)
        page.goto(f"{side.url}/en/")
        side.seat(page.locator("#game").get_attribute("data-game"), SEED)
        page.reload()
        page.evaluate(f"window.benchTarget = {len(directions)}")
        sent = []
        page.on("request", lambda request: sent.append(request)
                if request.url.endswith("/move") else None)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": latency_ms, "downloadThroughput": -1,
            "uploadThroughput": -1})
        page.evaluate(PRESS, {"keys": [ARROWS[d] for d in directions], "gap": gap_ms})
        page.wait_for_function(
            f"() => {' && '.join(f'window.bench.{name} !== null' for name in MEASURES)}",
            timeout=60_000)
        bench = page.evaluate("window.bench")
        keys = bench["keys"]
        return ({name: bench[name] - bench["first"] for name in MEASURES}, len(sent),
                (keys[-1] - keys[0]) / (len(keys) - 1))
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="e0edf07", help="earlier commit to compare with")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--latencies", default="0,100,300", help="ms added to each request")
    parser.add_argument("--presses", type=int, default=6)
    parser.add_argument("--gap-ms", type=int, default=30)
    args = parser.parse_args()
    latencies = [int(value) for value in args.latencies.split(",")]
    directions = presses_for(SEED, args.presses)
    times: dict[tuple[str, int, str], list[float]] = {}
    requests: dict[tuple[str, int], list[int]] = {}
    gaps: list[float] = []
    with ExitStack() as stack, tempfile.TemporaryDirectory() as earlier:
        sides = [stack.enter_context(served(args.against, unpacked(args.against, Path(earlier)))),
                 stack.enter_context(served("this", ROOT))]
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=["--no-sandbox", "--disable-gpu"])
        for side in sides:  # a first page load warms each server up
            trial(browser, side, 0, directions, args.gap_ms)
        for round_number in range(args.rounds):
            for latency in latencies:
                for side in sides if round_number % 2 == 0 else sides[::-1]:
                    elapsed, sent, gap = trial(browser, side, latency, directions, args.gap_ms)
                    for measure, ms in elapsed.items():
                        times.setdefault((side.name, latency, measure), []).append(ms)
                    requests.setdefault((side.name, latency), []).append(sent)
                    gaps.append(gap)
        browser.close()
    names = [args.against, "this"]
    print(f"{args.presses} presses {statistics.mean(gaps):.0f} ms apart (mean), seeded game "
          f"{SEED} ({', '.join(directions)}), {args.rounds} rounds; ms from the first press to "
          f"the frame in which tiles first move, the first press's new tile shows, and the board "
          f"shows all {args.presses} moves: median (min-max); /move requests a trial")
    print(f"{'latency':>8} {'measure':>12}" + "".join(f"{name:>24}" for name in names)
          + f"{'ratio':>8}")
    for latency in latencies:
        for measure, label in MEASURES.items():
            cells, medians = [], []
            for name in names:
                values = times[(name, latency, measure)]
                medians.append(statistics.median(values))
                cells.append(f"{medians[-1]:7.0f} ({min(values):.0f}-{max(values):.0f})")
            print(f"{latency:>6}ms {label:>12}" + "".join(f"{cell:>24}" for cell in cells)
                  + f"{medians[1] / medians[0]:>8.2f}")
        print(f"{'':>8} {'requests':>12}" + "".join(
            f"{statistics.median(requests[(name, latency)]):>24.0f}" for name in names))


if __name__ == "__main__":
    main()
