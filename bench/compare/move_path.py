"""How many of the project's functions and files does one arrow-key move pass, here and at
another commit?

    python -m bench.compare.move_path [--against 993fd37] [--seeds 2048 7] [--list]

A fresh app (SQLite in a scratch folder, no solver warm-up) is loaded once through Flask's test
client as the page is, its game started from the seed; six legal moves are posted as the page's
script posts them (game, seq and CSRF token), then one more ``POST /move`` is traced with
``sys.setprofile`` and ``threading.setprofile``. The project is ``engine/`` and ``webapp/``;
a named function leaves out comprehensions, generator expressions and lambdas; call events count
every call, generator resumptions included. With --against the same count runs in that commit's
tree (``git archive``), as its own code: this file needs nothing from the tree but its engine
and webapp. --list names each file's functions, with how often each ran.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path

#: The page's CSRF token and game id, as harness.player reads them (repeated here: this file
#: also runs in trees older than the harness).
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
GAME = re.compile(r'data-game="([^"]+)"')
ANONYMOUS = ("<listcomp>", "<genexpr>", "<lambda>", "<dictcomp>", "<setcomp>")
PREFERENCE = ("down", "left", "right", "up")
MOVES_BEFORE = 6


def traced_move(root: Path, seed: int) -> Counter:
    """Calls by (file, first line, name) in the seventh move of a game from `seed`, in the tree
    at `root` (whose engine and webapp are imported)."""
    from engine import Game
    from webapp import create_app
    try:
        from webapp.store.game_record import GameRecord
    except ImportError:  # a tree from before webapp/store/game_record.py
        from webapp.store.records import GameRecord

    start = GameRecord.start.__func__
    GameRecord.start = classmethod(
        lambda cls, game=None, **options: start(cls, game or Game.new(seed, **options)))
    app = create_app({"INSTANCE_PATH": tempfile.mkdtemp(), "SECRET_KEY": "move-path",
                      "SOLVER_WARM_UP": False})
    client = app.test_client()
    page = client.get("/").text
    token, game, seq = CSRF.search(page).group(1), GAME.search(page).group(1), 0

    def legal() -> str:
        stored = app.extensions["games"].get(game).game
        return next(name for name in PREFERENCE if name in stored.legal_moves())

    def move(direction: str) -> None:
        nonlocal game, seq
        answer = client.post("/move", data={"game": game, "seq": str(seq + 1),
                                            "direction": direction},
                             headers={"X-CSRFToken": token})
        assert answer.status_code == 200, answer.status_code
        game, seq = answer.headers["X-Game"], int(answer.headers["X-Seq"])

    for _ in range(MOVES_BEFORE):
        move(legal())
    direction = legal()
    calls: Counter = Counter()

    def count(frame, event: str, _arg: object) -> None:
        if event == "call":
            code = frame.f_code
            calls[code.co_filename, code.co_firstlineno, code.co_name] += 1

    sys.setprofile(count)
    threading.setprofile(count)
    try:
        move(direction)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return calls


def report(root: Path, seeds: list[int], listed: bool) -> None:
    """Print each seed's counts for the tree at `root`."""
    project = tuple(f"{root / part}{os.sep}" for part in ("engine", "webapp"))
    for seed in seeds:
        calls = traced_move(root, seed)
        ours = {key: number for key, number in calls.items() if key[0].startswith(project)}
        named = [key for key in ours if key[2] not in ANONYMOUS]
        files = sorted({key[0] for key in ours})
        library = [key for key in calls if key not in ours and not key[0].endswith(".html")]
        print(f"seed {seed}: {len(named)} named project functions ({len(ours)} with the "
              f"anonymous) in {len(files)} files ({sum('/engine/' in f for f in files)} engine, "
              f"{sum('/webapp/' in f for f in files)} webapp), {sum(ours.values())} call events; "
              f"library: {len(library)} functions in {len({key[0] for key in library})} files, "
              f"{sum(calls[key] for key in library)} call events")
        if listed:
            for path in files:
                names = sorted((key[2], ours[key]) for key in named if key[0] == path)
                print(f"  {Path(path).relative_to(root)} ({len(names)}): " + ", ".join(
                    name if number == 1 else f"{name} x{number}" for name, number in names))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="COMMIT", help="count at this commit too, first")
    parser.add_argument("--seeds", type=int, nargs="+", default=[2048, 7])
    parser.add_argument("--list", action="store_true", help="name each file's functions")
    parser.add_argument("--here", type=Path, help=argparse.SUPPRESS)  # a tree's own run
    options = parser.parse_args()
    if options.here:
        report(options.here, options.seeds, options.list)
        return
    here = Path(__file__).resolve().parents[2]
    if options.against:
        from harness.checkout import unpacked

        with tempfile.TemporaryDirectory() as scratch:
            tree = unpacked(options.against, Path(scratch) / "tree")
            print(f"at {options.against}:", flush=True)
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--here", str(tree),
                            "--seeds", *map(str, options.seeds), *(["--list"] * options.list)],
                           cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, check=True)
        print("here:")
    report(here, options.seeds, options.list)


if __name__ == "__main__":
    main()
