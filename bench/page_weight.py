"""Print the bytes a first visit downloads (HTML + CSS + JS, no web fonts; target < 60 KB), as
sent to a browser that accepts what Chromium accepts (static text files travel compressed,
webapp/compression.py) and uncompressed, and the size of a move's fragment (target < 4 KB),
measured through Flask's test client.

    python -m bench.page_weight [--seed 2048]

Fragments grow as the board fills, so the game is a fixed one: games started in this process
draw their seeds from a generator seeded with --seed, and the same run prints the same sizes.
"""

import argparse
import random
import re
import tempfile

from engine import rng
from harness.http_client import CHROMIUM_ENCODINGS
from harness.player import Player
from webapp import create_app

ASSET = re.compile(r'<(?:link rel="stylesheet"|script type="module") (?:href|src)="([^"]+)"')
MODULE_IMPORT = re.compile(r'^import .* from "(\./[^"]+)";$', re.M)


def first_load(client) -> dict[str, tuple[int, int]]:
    """Bytes sent and uncompressed bytes of the page and of every stylesheet and script module
    it pulls in."""
    page = client.get("/", headers=CHROMIUM_ENCODINGS)
    sizes = {"/": (len(page.data), len(page.data))}
    pending = ASSET.findall(page.text)
    while pending:
        url = pending.pop()
        if url in sizes:
            continue
        body = client.get(url).data
        sizes[url] = (len(client.get(url, headers=CHROMIUM_ENCODINGS).data), len(body))
        if url.endswith(".js"):
            base = url.rsplit("/", 1)[0]
            pending += [f"{base}/{name[2:]}" for name in MODULE_IMPORT.findall(body.decode())]
    return sizes


def move_fragments(client, moves: int = 200) -> list[int]:
    """Bytes of the fragments answering a game's moves (the board fills up as it goes)."""
    player = Player(client)
    directions = ("left", "down", "right", "down")
    sizes = []
    for seq in range(1, moves + 1):
        answer = player.move(directions[seq % 4], seq)
        if answer.status_code != 200:
            raise SystemExit(f"move {seq} answered {answer.status_code}: no fragment to weigh")
        sizes.append(len(answer.data))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=2048, help="seeds the games' seeds")
    seeds = random.Random(parser.parse_args().seed)
    rng.new_seed = lambda: seeds.getrandbits(64)
    with tempfile.TemporaryDirectory() as instance:
        # Moves go faster than a person plays them: the move budget is lifted for the run.
        app = create_app({"INSTANCE_PATH": instance, "SOLVER_WARM_UP": False,
                          "MOVE_RATE_LIMIT": "1000000/second"})
        client = app.test_client()
        sizes = first_load(client)
        print(f"{'sent':>8}  {'raw':>8}")
        for url, (sent, raw) in sorted(sizes.items()):
            print(f"{sent:>8,}  {raw:>8,} B  {url}")
        sent, raw = (sum(column) for column in zip(*sizes.values()))
        print(f"{sent:>8,}  {raw:>8,} B  first load total (HTML+CSS+JS), target < 60 KB sent")
        fragments = move_fragments(client)
        print(f"{fragments[0]:>8,} B  first move fragment (seeded game), target < 4 KB")
        print(f"{max(fragments):>8,} B  largest of {len(fragments)} move fragments")


if __name__ == "__main__":
    main()
