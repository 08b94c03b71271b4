"""Does a change alter any answer the game sends? The game's and the history's pages and
fragments over seeded play in English, Polish and Japanese, against another commit's.

    python -m bench.compare.render_diff --against 993fd37 [--moves 1500] [--seed 2048]
    python -m bench.compare.render_diff --record /tmp/before.jsonl
    python -m bench.compare.render_diff --compare /tmp/before.jsonl
    python -m bench.compare.render_diff --against 993fd37 --ignore '<p id="help-note".*?</p>\n'

--against unpacks that commit (``git archive``) into a scratch folder, has its own copy of this
script record its answers there (the same presses, in its own code), and compares this tree's
with them; --record and --compare do the two halves by hand.

Each language plays its own seeded games through the routes (moves, some blocked, undos,
repeated move numbers, hints, resets to the current state, page loads, a win kept playing, a
record damaged in the store, new games), and every finished game is looked at through its
replay and its review (none, queued, running, done, failed; by its player and by another
browser); the rules, strategy and solver pages are drawn once. English is asked for without a language in the URL, Polish under ``/pl/``, Japanese
through Accept-Language. What differs from run to run (CSRF tokens, dates) is blanked; game
ids are counted, not random. Each answer's status, body and game headers are compared; headers
a record does not have are not. --ignore removes what a known change added (a regular
expression, matched in both bodies), so that the comparison shows everything else.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from engine import DIRECTIONS, Game
from harness.checkout import unpacked
from harness.damage import damage_stored_move
from harness.live_server import LIFTED_LIMITS
from harness.player import Player
from webapp import create_app
from webapp.review import WORKER
from webapp.review import model as reviews
from webapp.review.analysis import review_game
from webapp.store import game_record
from webapp.store.game_record import GameRecord

BLANKED = (
    (re.compile(r'(name="csrf-token" content=|name="csrf_token" value=)"[^"]*"'), r'\1"-"'),
    (re.compile(r'<time datetime="[^"]*">[^<]*</time>'), "<time>-</time>"),
)
#: The headers a record keeps, when an answer has them.
KEPT_HEADERS = ("X-Game", "X-Seq", "X-Stale", "Retry-After")
#: How each language is asked for: URL prefix and request headers.
LANGUAGES = {"en": ("", {}), "pl": ("/pl", {}), "ja": ("", {"Accept-Language": "ja"})}
#: Every budget lifted, the history's too: a replay's steps come faster than its budget allows,
#: and which of them a 1-second window refuses would depend on the speed of the code measured.
NO_LIMITS = {**LIFTED_LIMITS, "HISTORY_RATE_LIMIT": "1000000/second"}
#: The long pages, drawn once a language (their example boards show directions).
PAGES = ("rules", "strategy", "solver")
WIN_ROWS = ((1024, 1024, 0, 0), (2, 4, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))


def blank(text: str) -> str:
    """The answer with what differs from run to run blanked."""
    for pattern, replacement in BLANKED:
        text = pattern.sub(replacement, text)
    return text


def seeded_starts(seed: int) -> None:
    """Games the app starts take seeds and ids from counters, so every run plays the same."""
    seeds, ids = itertools.count(seed), itertools.count()
    start = GameRecord.start.__func__
    game_record.new_game_id = lambda: f"game{next(ids):018d}"
    GameRecord.start = classmethod(lambda cls, game=None: start(cls, game or Game.new(next(seeds))))


def judged(rows) -> dict[str, float]:
    """A made-up but fixed evaluation, for reviews written without the solver."""
    weight = sum(value * (index + 1) for index, value in enumerate(itertools.chain(*rows)))
    return {name: float((weight * (order + 3)) % 97 + 1) for order, name in enumerate(DIRECTIONS)}


class Browser:
    """One browser in one language: a player on its own client, and every answer it got."""

    def __init__(self, app, lang: str, answers: list) -> None:
        self.app, self.lang, self.answers = app, lang, answers
        self.prefix, headers = LANGUAGES[lang]
        client = app.test_client()
        client.environ_base.update({f"HTTP_{k.upper().replace('-', '_')}": v
                                    for k, v in headers.items()})
        self.player = Player(client, self.prefix + "/")
        self.keep("GET /", self.player.page)

    @property
    def game(self) -> str:
        return self.player.game

    @property
    def seq(self) -> int:
        return self.player.seq

    def keep(self, label: str, answer) -> str:
        headers = {name: answer.headers[name] for name in KEPT_HEADERS if name in answer.headers}
        self.answers.append({"label": f"{self.lang} {label}", "status": answer.status_code,
                             "headers": headers, "body": blank(answer.text)})
        return answer.text

    def get(self, path: str, prefix: str | None = None) -> str:
        url = (self.prefix if prefix is None else prefix) + path
        return self.keep(f"GET {path}", self.player.client.get(url))

    def post(self, path: str, **form: str) -> str:
        label = f"POST {path} {sorted(self.player.form(form).items())}"
        return self.keep(label, self.player.post(self.prefix + path, **form))

    @property
    def record(self) -> GameRecord:
        return self.app.extensions["games"].get(self.game)

    def store(self, record: GameRecord) -> None:
        assert self.app.extensions["games"].replace(record)


def play(browser: Browser, moves: int, seed: int) -> Iterator[str]:
    """Seeded presses; yields the id of each game when it is over or left."""
    choose = random.Random(seed)
    for count in range(moves):
        status = str(browser.record.game.status)
        if status == "over":
            yield browser.game
            browser.post("/new")
            continue
        if status == "won":
            browser.post("/keep-playing")
            continue
        if count == 40:  # a win, kept playing
            record = browser.record
            record.game = Game.from_rows(WIN_ROWS, seed=seed)
            browser.store(record)
            browser.get("/")
            browser.post("/move", direction="left", seq=str(browser.seq + 1))
            continue
        if count == 90 and browser.seq > 5:  # a damaged record met by undo
            damage_stored_move(browser.app, browser.game, 2)
            browser.post("/undo", seq=str(browser.seq + 1))
            continue
        roll = choose.random()
        if roll < 0.86:
            browser.post("/move", direction=choose.choice(DIRECTIONS), seq=str(browser.seq + 1))
        elif roll < 0.91:
            browser.post("/undo", seq=str(browser.seq + 1))
        elif roll < 0.93:
            browser.post("/move", direction=choose.choice(DIRECTIONS), seq=str(browser.seq))
        elif roll < 0.96:
            browser.post("/hint")
        elif roll < 0.98:
            browser.get(f"/state?game={browser.game}")
        else:
            browser.get("/")
    yield browser.game


def look_back(owner: Browser, stranger: Browser, game_id: str, seed: int) -> None:
    """A game's replay and its review in every state, by its player and by another browser."""
    record = owner.app.extensions["games"].get(game_id)
    total = len(record.game.history)
    choose = random.Random(seed)
    for move in sorted({0, 1, total // 2, total, choose.randrange(total + 1)}):
        owner.get(f"/games/{game_id}?move={move}")
        owner.get(f"/games/{game_id}/position?move={move}&from={max(move - 1, 0)}")
        owner.get(f"/games/{game_id}/position?move={move}&from={total}")
    queue = owner.app.extensions[WORKER].queue
    states = [None, reviews.Review.asked(record.game.history)]
    states.append(states[1].progressed(total // 3))
    states.append(states[1].failed())
    moves = max(total - choose.randrange(3), 0)
    if moves:
        asked = reviews.Review(moves, reviews.digest(record.game.history, moves), reviews.QUEUED)
        analysis = review_game(record.game.history, moves, judged, lambda done: None)
        states.append(asked.finished(analysis))
    for review in states:
        if review is not None:
            queue.replace_review(game_id, queue.review(game_id), review.to_text())
        for browser in (owner, stranger):
            browser.get(f"/games/{game_id}/review")
            browser.get(f"/games/{game_id}/review/progress")
    owner.get("/games")


def answers(moves: int, seed: int) -> list[dict]:
    """Every answer of a run."""
    seeded_starts(seed)
    kept: list[dict] = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "render-diff",
                          "SOLVER_WARM_UP": True, **NO_LIMITS})
        for number, lang in enumerate(LANGUAGES):
            owner, stranger = Browser(app, lang, kept), Browser(app, lang, kept)
            for page in PAGES:
                owner.get(f"/{lang}/{page}", prefix="")
            for game_id in play(owner, moves, seed + number):
                look_back(owner, stranger, game_id, seed + number)
    return kept


def compare(before: list[dict], after: list[dict], ignored: list[re.Pattern]) -> int:
    """Print the differences, with what `ignored` matches taken out of both bodies; their
    count."""
    for answer in (*before, *after):
        for pattern in ignored:
            answer["body"] = pattern.sub("", answer["body"])
    differences = 0
    if len(before) != len(after):
        print(f"{len(before)} answers recorded, {len(after)} now")
        differences += 1
    for old, new in zip(before, after):
        new_headers = {name: value for name, value in new["headers"].items()
                       if name in old["headers"]}
        if (old["label"], old["status"], old["body"], old["headers"]) != (
                new["label"], new["status"], new["body"], new_headers):
            differences += 1
            if differences <= 5:
                print(f"--- {old['label']} ({old['status']} {old['headers']})\n{old['body']}\n"
                      f"+++ {new['label']} ({new['status']} {new_headers})\n{new['body']}\n")
    return differences


def recorded_at(commit: str, moves: int, seed: int, scratch: Path) -> Path:
    """The answers of `commit`'s code, recorded by its own copy of this script in its tree."""
    tree = unpacked(commit, scratch / "tree")
    record = scratch / "answers.jsonl"
    if (tree / "bench" / "compare" / "render_diff.py").exists():
        command = [sys.executable, "-m", "bench.compare.render_diff"]
    else:  # before bench/ was a package
        command = [sys.executable, "bench/render_diff.py"]
    subprocess.run([*command, "--record", str(record), "--moves", str(moves), "--seed", str(seed)],
                   cwd=tree, check=True)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--against", metavar="COMMIT", help="compare the answers with this commit's")
    what.add_argument("--record", type=Path, help="write the answers to this file")
    what.add_argument("--compare", type=Path, help="compare the answers with this record")
    parser.add_argument("--moves", type=int, default=1500, help="presses per language")
    parser.add_argument("--seed", type=int, default=2048)
    parser.add_argument("--ignore", type=re.compile, action="append", default=[],
                        metavar="REGEX", help="left out of both sides' bodies (repeatable)")
    options = parser.parse_args()
    if options.against:
        with tempfile.TemporaryDirectory() as scratch:
            record = recorded_at(options.against, options.moves, options.seed, Path(scratch))
            before = [json.loads(line) for line in record.read_text().splitlines()]
    started = time.perf_counter()
    kept = answers(options.moves, options.seed)
    seconds = time.perf_counter() - started
    if options.record:
        options.record.write_text("".join(json.dumps(answer) + "\n" for answer in kept))
        print(f"{len(kept)} answers recorded in {seconds:.0f} s")
        return
    if options.compare:
        before = [json.loads(line) for line in options.compare.read_text().splitlines()]
    differences = compare(before, kept, options.ignore)
    moves = sum(answer["label"].split()[1:3] == ["POST", "/move"] for answer in kept)
    print(f"{len(kept)} answers compared ({moves} moves), {differences} differ ({seconds:.0f} s)")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
