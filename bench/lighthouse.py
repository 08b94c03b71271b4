"""Lighthouse scores of every page in every language, on a phone and on a desktop.

    make lighthouse                      # installs the pinned Lighthouse, then runs this
    python -m bench.lighthouse [--only /pl/rules] [--form-factor mobile]

Serves the production app with gunicorn (gunicorn.conf.py, 2 workers) on a free loopback port,
then runs Lighthouse (bench/lighthouse/node_modules, pinned in its package.json) against Debian's
Chromium (CHROME_PATH, default /usr/bin/chromium) for every page a player meets, in each
language: the game, the rules, strategy and solver pages, the daily game, the records table and
a day's table, the player's games, a game's replay and its review, and the form that enters a
game. Two games are played to their end first: one entered (so the table is audited, not the
note of an empty one, and its replay and review are those of a whole game) and one waiting for
its form; the pages of a player's own games are audited with that player's session cookie, the
others as a newcomer sees them.
`--only` takes a page as PAGES writes it (`/en/games/{entered}`). Prints the four category
scores per page and form factor, then every audit that kept a category below 100. 10 to 30 s
a page; exits 1 unless every score is 100. Performance is measured under simulated
throttling, but a machine busy with other work still drags it down (a few points of first paint
or blocking time): run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from harness.http_client import HttpClient
from harness.live_server import production_server
from harness.player import Player
from webapp.i18n import LANGUAGES

LIGHTHOUSE = Path(__file__).resolve().parent / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
FORM_FACTORS = ("mobile", "desktop")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"
#: The pages anyone sees alike ({entered} and {waiting} stand for the ids of the two games
#: played first, `Stage`), and those a player sees of their own games.
PUBLIC_PAGES = ("", "rules", "strategy", "solver", "daily", "records", "records/daily",
                "games/{entered}", "games/{entered}/review")
OWN_PAGES = ("games", "records/enter?game={waiting}")
PAGES = [f"/{lang}/{page}" for lang in LANGUAGES for page in PUBLIC_PAGES + OWN_PAGES]
#: The records table's entry: a name of the longest length the table takes, in two words.
ENTRY_NAME = "Małgorzata Wiśniewska 12"
#: The moves the entered game tries, in this order; the legal ones are those the board's
#: data-slides names.
PREFERENCE = ("down", "left", "right", "up")
SLIDES = re.compile(r'data-slides="([^"]*)"')


@dataclass(frozen=True)
class Stage:
    """What the pages are audited with: a player's session cookie, the player's game entered in
    the records table and the one finished after it, waiting to be entered."""

    cookie: str
    entered: str
    waiting: str


def play_to_the_end(player: Player, board: str) -> None:
    """Play the player's game to its end, each move the first legal one of PREFERENCE (the
    legal ones are those the board's data-slides names); `board` is the game's board now."""
    while player.status != "over":
        legal = [slide.split(":")[0] for slide in SLIDES.search(board).group(1).split()]
        board = player.served("/move", direction=next(d for d in PREFERENCE if d in legal),
                              seq=player.next_seq())


def set_the_stage(port: int) -> Stage:
    """Play a game on the server to its end and enter it in the records table under
    ENTRY_NAME, then play a new game to its end."""
    player = Player(HttpClient(port), "/en/")
    play_to_the_end(player, player.page.text)
    entered = player.game
    answer = player.client.post("/en/records", data={
        "game": entered, "name": ENTRY_NAME, "csrf_token": player.token})
    if answer.status_code != 303:
        raise RuntimeError(f"the records form answered {answer.status_code}")
    play_to_the_end(player, player.served("/new"))
    cookie = "; ".join(f"{name}={value}" for name, value in player.client.cookies.items())
    return Stage(cookie, entered, player.game)


def audit(url: str, form_factor: str, cookie: str | None) -> dict:
    """Lighthouse's report (as parsed JSON) for one page and form factor, requested with the
    session `cookie` if any."""
    command = [str(LIGHTHOUSE), url, "--output=json", "--output-path=stdout", "--quiet",
               f"--chrome-flags={CHROME_FLAGS}", f"--only-categories={','.join(CATEGORIES)}"]
    if cookie:
        command.append(f"--extra-headers={json.dumps({'Cookie': cookie})}")
    if form_factor == "desktop":
        command.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def scores(report: dict) -> dict[str, int]:
    """Category -> score out of 100."""
    return {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}


def shortfalls(report: dict) -> list[str]:
    """The weighted audits that did not pass, with the elements they name."""
    found = []
    for name in CATEGORIES:
        for ref in report["categories"][name]["auditRefs"]:
            result = report["audits"][ref["id"]]
            if ref["weight"] and result["score"] is not None and result["score"] < 1:
                items = (result.get("details") or {}).get("items") or []
                where = [item.get("node", {}).get("snippet", "") for item in items[:3]]
                found.append(f"{name}: {ref['id']} ({result['score']}) {' '.join(where)}".strip())
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append",
                        help="a page as PAGES writes it (repeatable)")
    parser.add_argument("--form-factor", choices=FORM_FACTORS, action="append")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit("Lighthouse is not installed: run `make lighthouse` (npm ci in bench/lighthouse)")
    pages, form_factors = args.only or PAGES, args.form_factor or FORM_FACTORS
    print(f"| page | form factor | {' | '.join(CATEGORIES)} |")
    print(f"|---|---|{'---|' * len(CATEGORIES)}")
    problems, perfect = [], True
    with production_server(WEB_CONCURRENCY="2") as server:
        port = server.port
        stage = set_the_stage(port)
        for page in pages:
            path = page.format(entered=stage.entered, waiting=stage.waiting)
            cookie = stage.cookie if page.split("/", 2)[2] in OWN_PAGES else None
            for form_factor in form_factors:
                report = audit(f"http://127.0.0.1:{port}{path}", form_factor, cookie)
                got = scores(report)
                perfect &= all(score == 100 for score in got.values())
                print(f"| {page} | {form_factor} | {' | '.join(str(got[n]) for n in CATEGORIES)} |",
                      flush=True)
                problems += [f"{page} {form_factor} {line}" for line in shortfalls(report)]
    for line in problems:
        print(line)
    return 0 if perfect else 1


if __name__ == "__main__":
    sys.exit(main())
