"""A fair share per client: 20 players at a person's pace, each from an address of its own,
while one address floods the server with moves, hints and reviews, against the same 20 players
without the flood, side by side in the same minutes.

    python -m bench.fairness [--slices 8] [--seconds 20] [--flooders 8] [--address-sessions N]
                             [--flood-niceness 0] [--flood move,move,hint,review]
                             [--through-nginx] [--set NAME=VALUE ...]

It starts gunicorn as production does (gunicorn.conf.py, 2 workers of 4 threads, PROXY_HOPS=1 so
that each request's X-Forwarded-For is its client address), with the default budgets
(--address-sessions sets ADDRESS_BUDGET_SESSIONS, --set any setting, e.g. --set
MOVE_RATE_LIMIT="10/second", to try other budgets). The 20 players play for the whole run (a move, then PACE seconds to think, give or take half; a new game
when one is over). The slices alternate: in every other one, --flooders sessions from a single
address send moves, hints and review asks flat out, each as soon as the last is answered,
whatever the answer (a 429's Retry-After is ignored, as a script would). Each of the players'
moves counts in the slice it was sent in; the flood runs in a process of its own. It prints the players' latencies in the quiet and the
flooded slices, the ratio of their p99s (the target: within 1.5), and what the flood got: its
answers by status and the moves, hints and reviews the server did for it per second.

With --through-nginx every client speaks HTTPS to the shipped nginx configuration
(deploy/nginx, run by `harness.nginx_server`) in front of gunicorn, each from a loopback
address of its own (the players 127.0.1.N, the flood 127.0.2.66): nginx's per-address limits
meet the flood before the app does (the target: 64 flooding connections, --flooders 64,
leave the players' p99 within 1.5 of quiet).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import threading
import time
from collections import Counter
from contextlib import nullcontext

from harness.http_client import HttpAnswer, HttpClient
from harness.live_server import production_server
from harness.nginx_server import FrontDoor
from harness.player import Page, Player
from webapp.config import settings_from

PLAYERS = 20
PACE = 0.2  # seconds between a player's moves, give or take half: up to 5 keys a second
FLOOD_ADDRESS = "198.51.100.66"
#: The same clients behind nginx: loopback addresses the connections come from.
NGINX_PLAYER, NGINX_FLOOD = "127.0.1.{}", "127.0.2.66"
DIRECTIONS = ("left", "down", "right", "down")
#: Every budget at its default: what the bench measures is the defaults' fairness.
DEFAULT_BUDGETS = {name: value for name, value in settings_from({}).items()
                   if name.endswith("_RATE_LIMIT")}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Run:
    """What the players' threads and the flood's process share: the slices' flags (events that
    cross processes), the players' latencies by slice kind, and the flood's tallies."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("fork")
        self.flooding = context.Event()
        self.stopped = context.Event()
        self.tallies = context.SimpleQueue()
        self.latencies: dict[bool, list[float]] = {False: [], True: []}
        self.errors: Counter[str] = Counter()
        self.flood: Counter[str] = Counter()
        self.lock = threading.Lock()


def client(port: int, address: str, nginx: bool) -> HttpClient:
    """A client at `address`: claimed in X-Forwarded-For to gunicorn, or the loopback address
    it connects from to nginx (over HTTPS)."""
    if nginx:
        return HttpClient(port, source=address, tls=True)
    return HttpClient(port, address)


def play(port: int, address: str, nginx: bool, run: Run, seed: int) -> None:
    """One player at a person's pace until the run stops."""
    rng = random.Random(seed)
    player = Player(client(port, address, nginx))
    turn = 0
    while not run.stopped.is_set():
        flooded = run.flooding.is_set()
        started = time.perf_counter()
        status = player.move(DIRECTIONS[turn % len(DIRECTIONS)]).status_code
        elapsed = time.perf_counter() - started
        with run.lock:
            run.latencies[flooded].append(elapsed)
            if status != 200:
                run.errors[f"player {status}"] += 1
        turn += 1
        if status == 200 and player.status == "over":
            player.post("/new")
        run.stopped.wait(PACE * rng.uniform(0.5, 1.5))


def flood_process(port: int, nginx: bool, flooders: int, niceness: int, kinds: tuple[str, ...],
                  run: Run) -> None:
    """The flooding address, in a process of its own (so that its busy threads never hold up the
    players' in this one) at `niceness`: `flooders` sessions; their tallies go back through
    run.tallies."""
    os.nice(niceness)
    threads = [threading.Thread(target=flood, args=(port, nginx, kinds, run))
               for _ in range(flooders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    run.tallies.put({**run.flood, "client CPU seconds": time.process_time()})


def flood(port: int, nginx: bool, kinds: tuple[str, ...], run: Run) -> None:
    """One of the flooding address's sessions: `kinds` of requests in turn (moves, hints,
    review asks), flat out, in the flooded slices."""
    player = joined(port, NGINX_FLOOD if nginx else FLOOD_ADDRESS, nginx, run)
    turn = 0
    while not run.stopped.is_set():
        if not run.flooding.wait(0.1):
            continue
        kind = kinds[turn % len(kinds)]
        if kind == "move":
            path, form = "/move", {"direction": DIRECTIONS[turn % 3], "seq": player.next_seq()}
        elif kind == "hint":
            path, form = "/hint", {}
        else:
            path, form = f"/games/{player.game}/review", {}
        status = player.post(path, **form).status_code
        with run.lock:
            run.flood[f"{kind} {status}"] += 1
        if kind == "move" and status == 200 and player.status == "over":
            player.post("/new")
        turn += 1


class Joined(Player):
    """A player on the page `loaded` that its client was served already."""

    def __init__(self, session: HttpClient, loaded: HttpAnswer) -> None:
        self.client, self.page = session, loaded
        shown = Page.of(loaded.text)
        Page.__init__(self, shown.token, shown.game, shown.seq, shown.status)


def joined(port: int, address: str, nginx: bool, run: Run) -> Player:
    """A player whose page load was served: a flood's page loads meet refusals (nginx's 429
    when its connections are many, the page budget's), and it loads again until one is."""
    while True:
        session = client(port, address, nginx)
        page = session.get("/")
        if page.status_code == 200:
            return Joined(session, page)
        with run.lock:
            run.flood["page refused"] += 1


def measure(slices: int, seconds: float, flooders: int, niceness: int, kinds: tuple[str, ...],
            settings: dict[str, str], nginx: bool) -> tuple[Run, float]:
    """Run the slices against a fresh server (behind nginx if `nginx`); the run and the flooded
    slices' total seconds."""
    run = Run()
    with production_server(WEB_CONCURRENCY="2", PROXY_HOPS="1",
                           **{**DEFAULT_BUDGETS, **settings}) as server, \
            (FrontDoor(server.port) if nginx else nullcontext()) as door:
        port = door.https_port if nginx else server.port
        flooding = multiprocessing.get_context("fork").Process(
            target=flood_process, args=(port, nginx, flooders, niceness, kinds, run))
        flooding.start()
        player_address = NGINX_PLAYER if nginx else "203.0.113.{}"
        threads = [threading.Thread(target=play, args=(
            port, player_address.format(n + 1), nginx, run, n)) for n in range(PLAYERS)]
        for thread in threads:
            thread.start()
        flooded_seconds = 0.0
        for number in range(slices):
            if number % 2:
                run.flooding.set()
            else:
                run.flooding.clear()
            time.sleep(seconds)  # the slice runs
            flooded_seconds += seconds if number % 2 else 0.0
        run.stopped.set()
        run.flooding.set()  # let the flood's threads see the end
        for thread in threads:
            thread.join(timeout=120)
        run.flood.update(run.tallies.get())
        flooding.join(timeout=120)
    return run, flooded_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--flooders", type=int, default=8)
    parser.add_argument("--address-sessions", type=int)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting on top of the defaults (a budget to try), repeatable")
    parser.add_argument("--flood-niceness", type=int, default=0,
                        help="19: the flooding client takes only CPU the server leaves, as one"
                             " on another machine would")
    parser.add_argument("--flood", default="move,move,hint,review",
                        help="the flood's requests in turn (move, hint, review)")
    parser.add_argument("--through-nginx", action="store_true",
                        help="every client over HTTPS to the shipped nginx configuration")
    args = parser.parse_args()
    settings = ({"ADDRESS_BUDGET_SESSIONS": str(args.address_sessions)}
                if args.address_sessions else {})
    settings.update(item.split("=", 1) for item in args.set)
    kinds = tuple(args.flood.split(","))
    run, flooded_seconds = measure(args.slices, args.seconds, args.flooders, args.flood_niceness,
                                   kinds, settings, args.through_nginx)

    front = "behind nginx (deploy/nginx), over HTTPS; " if args.through_nginx else ""
    print(f"{front}{PLAYERS} players at a {PACE * 1000:.0f} ms pace, each from its own address;"
          f" {args.flooders} flooding sessions from one address in every other slice of"
          f" {args.seconds:.0f} s ({args.slices} slices), the flooding client at niceness"
          f" {args.flood_niceness}, sending {args.flood}; {settings or 'default settings'}")
    print("| slices | moves | p50 ms | p95 ms | p99 ms |")
    print("|---|---|---|---|---|")
    for flooded, name in ((False, "quiet"), (True, "flooded")):
        times = run.latencies[flooded]
        print(f"| {name} | {len(times)} | {percentile(times, 0.5) * 1000:.1f} |"
              f" {percentile(times, 0.95) * 1000:.1f} | {percentile(times, 0.99) * 1000:.1f} |")
    ratio = percentile(run.latencies[True], 0.99) / percentile(run.latencies[False], 0.99)
    print(f"p99 flooded / quiet: {ratio:.2f} (target within 1.5)")
    print(f"players' answers other than 200: {dict(run.errors) or 'none'}")
    cpu = run.flood.pop("client CPU seconds")
    print("the flood's answers:", ", ".join(f"{key}: {count}"
                                            for key, count in sorted(run.flood.items())))
    print(f"the flooding client itself used {cpu / flooded_seconds:.2f} of a core while flooding"
          " (it runs on the server's machine)")
    served = {kind: run.flood[f"{kind} 200"] / flooded_seconds for kind in ("move", "hint")}
    print(f"served to the flood: {served['move']:.1f} moves/s, {served['hint']:.1f} hints/s,"
          f" {run.flood['review 200']} review asks accepted")


if __name__ == "__main__":
    main()
