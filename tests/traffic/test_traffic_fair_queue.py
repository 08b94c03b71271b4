"""The fair queue in front of the app: when more requests wait than a process runs at once, the
client address that holds the fewest places and was served least lately goes first, whatever
the order of arrival; nothing is refused, however many requests one address has waiting. Each
test runs real threads through the real middleware around a WSGI app that holds the first
request (or the requests it names) until the test lets it go; the tests of how lately an address
was served stop the queue's clock."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest

from webapp.traffic import fair_queue
from webapp.traffic.fair_queue import FairQueue

FLOOD, PLAYER, OTHER = "198.51.100.66", "203.0.113.1", "203.0.113.2"
PATIENCE = 10.0  # seconds a test waits for the threads to reach the state it needs


class HeldApp:
    """A WSGI app noting each request's name as it runs; the first one runs until released."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.release = threading.Event()

    def __call__(self, environ, start_response):
        self.ran.append(environ["NAME"])
        if len(self.ran) == 1:
            self.release.wait(PATIENCE)
        start_response("200 OK", [])
        return [b"done"]


class NamedHoldsApp:
    """A WSGI app noting each request's name as it runs; those named in `held` run until the
    test lets each go (`let_go`), the others straight through."""

    def __init__(self, *held: str) -> None:
        self.ran: list[str] = []
        self.held = {name: threading.Event() for name in held}

    def __call__(self, environ, start_response):
        self.ran.append(environ["NAME"])
        if environ["NAME"] in self.held:
            self.held[environ["NAME"]].wait(PATIENCE)
        start_response("200 OK", [])
        return [b"done"]

    def let_go(self, name: str) -> None:
        self.held[name].set()


#: Each request's status and body, by its name.
answers: dict[str, tuple[str, bytes]] = {}


def send(queue: FairQueue, name: str, address: str, method: str = "POST") -> threading.Thread:
    """One request through the queue, on a thread of its own; its status lands in `answers`."""
    def run() -> None:
        statuses = []
        body = queue({"NAME": name, "REMOTE_ADDR": address, "REQUEST_METHOD": method},
                     lambda status, headers: statuses.append(status))
        answers[name] = (statuses[0], b"".join(body))
    thread = threading.Thread(target=run, daemon=True)  # a queue that loses one must not hang
    thread.start()
    return thread


def wait_until(condition) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, "the requests did not get there"
        time.sleep(0.005)


def run_behind_a_holder(queue: FairQueue, app: HeldApp, holder: tuple[str, str],
                        *waiting: tuple[str, str, str]) -> None:
    """The holder's request runs and holds the one place; the others (name, address, method)
    arrive in this order and wait; then the holder is let go and all of them finish."""
    threads = [send(queue, *holder)]
    wait_until(lambda: app.ran == [holder[0]])
    for number, request in enumerate(waiting, 1):
        threads.append(send(queue, *request))
        wait_until(lambda: len(queue.waiting) == number)
    app.release.set()
    for thread in threads:
        thread.join(PATIENCE)


def serve_straight_through(queue: FairQueue, address: str, count: int, name: str) -> None:
    """`count` requests of `address`, one after the other, through an idle queue."""
    for number in range(1, count + 1):
        send(queue, f"{name} {number}", address).join(PATIENCE)


@pytest.fixture(autouse=True)
def fresh_answers():
    answers.clear()


@pytest.fixture
def clock(monkeypatch) -> list[float]:
    """The queue's clock, standing still until the test moves it (``clock[0] += seconds``)."""
    now = [time.monotonic()]
    monkeypatch.setattr(fair_queue, "time", SimpleNamespace(monotonic=lambda: now[0]))
    return now


def test_a_request_of_an_address_holding_no_place_goes_before_the_flood_waiting_ahead_of_it():
    app = HeldApp()
    queue = FairQueue(app, slots=1)
    run_behind_a_holder(queue, app, ("flood 1", FLOOD), ("flood 2", FLOOD, "POST"),
                        ("flood 3", FLOOD, "POST"), ("player", PLAYER, "POST"))
    assert app.ran == ["flood 1", "player", "flood 2", "flood 3"]
    assert {status for status, _ in answers.values()} == {"200 OK"}


def test_between_addresses_holding_no_place_the_one_served_least_lately_goes_first():
    app = HeldApp()
    queue = FairQueue(app, slots=1)
    app.release.set()
    for name in ("other 1", "other 2"):  # OTHER was let in twice just now, PLAYER never
        send(queue, name, OTHER).join(PATIENCE)
    app.ran.clear()
    app.release.clear()
    run_behind_a_holder(queue, app, ("holder", FLOOD), ("other 3", OTHER, "POST"),
                        ("player", PLAYER, "POST"))
    assert app.ran == ["holder", "player", "other 3"]


def test_an_idle_queue_lets_each_request_straight_in():
    app = HeldApp()
    app.release.set()
    queue = FairQueue(app, slots=2)
    for number in range(3):
        send(queue, f"move {number}", PLAYER).join(PATIENCE)
    assert app.ran == ["move 0", "move 1", "move 2"]
    assert queue.free == 2 and not queue.waiting and queue.clients[PLAYER].inside == 0


def test_one_address_with_many_requests_waiting_has_none_refused_and_a_player_goes_first():
    app = HeldApp()
    queue = FairQueue(app, slots=1)
    tabs = [(f"tab {number}", FLOOD, "POST") for number in range(2, 8)]
    run_behind_a_holder(queue, app, ("tab 1", FLOOD), *tabs, ("page", FLOOD, "GET"),
                        ("player", PLAYER, "POST"))
    assert app.ran == ["tab 1", "player", *(name for name, _, _ in tabs), "page"]
    assert {status for status, _ in answers.values()} == {"200 OK"}
    assert queue.clients[FLOOD].inside == 0 and queue.free == 1


def test_a_freed_place_wakes_only_the_request_it_goes_to(monkeypatch):
    wakes = []

    class CountedCondition(threading.Condition):
        """A real condition that notes each time a waiting thread wakes."""

        def wait(self, timeout=None):
            woken = super().wait(timeout)
            wakes.append(threading.current_thread().name)
            return woken

    # the queue's own conditions only (threads and events wait on conditions too)
    monkeypatch.setattr(fair_queue, "threading",
                        SimpleNamespace(Condition=CountedCondition, Lock=threading.Lock))
    app = HeldApp()
    queue = FairQueue(app, slots=1)
    waiting = [(f"player {number}", f"203.0.113.{number}", "POST") for number in range(2, 8)]
    run_behind_a_holder(queue, app, ("holder", FLOOD), *waiting)
    assert app.ran == ["holder", *(name for name, _, _ in waiting)]
    assert len(wakes) == len(waiting)  # each waiting request woke once: when let in


def test_a_request_of_an_address_holding_fewer_places_goes_first_however_lately_served(clock):
    """With two places: the player, served three times just now, holds none; the other address
    holds one (its long request) and was served once. The player's request goes first."""
    app = NamedHoldsApp("other 1", "holder")
    queue = FairQueue(app, slots=2)
    serve_straight_through(queue, PLAYER, 3, "player")
    threads = [send(queue, "other 1", OTHER), send(queue, "holder", FLOOD)]
    wait_until(lambda: queue.free == 0)
    threads += [send(queue, "other 2", OTHER)]
    wait_until(lambda: len(queue.waiting) == 1)
    threads += [send(queue, "player 4", PLAYER)]
    wait_until(lambda: len(queue.waiting) == 2)
    app.let_go("holder")
    wait_until(lambda: len(app.ran) == 7)
    app.let_go("other 1")
    for thread in threads:
        thread.join(PATIENCE)
    assert app.ran[5:] == ["player 4", "other 2"]
    assert {status for status, _ in answers.values()} == {"200 OK"}


def test_an_addresss_count_of_requests_let_in_halves_every_second(clock):
    """Four requests let in five seconds ago count as 4/32 of one: fewer than one just now. So
    the address served four times then goes before the one served once since, although that
    one came first."""
    app = NamedHoldsApp("holder")
    queue = FairQueue(app, slots=1)
    serve_straight_through(queue, OTHER, 4, "other")
    clock[0] += 5.0
    serve_straight_through(queue, PLAYER, 1, "player")
    assert queue.clients[OTHER].recent(clock[0]) == pytest.approx(4 / 32)
    threads = [send(queue, "holder", FLOOD)]
    wait_until(lambda: queue.free == 0)
    for number, (name, address) in enumerate((("player 2", PLAYER), ("other 5", OTHER)), 1):
        threads.append(send(queue, name, address))
        wait_until(lambda: len(queue.waiting) == number)
    app.let_go("holder")
    for thread in threads:
        thread.join(PATIENCE)
    assert app.ran[-3:] == ["holder", "other 5", "player 2"]


def test_past_the_tracked_addresses_cap_only_addresses_with_requests_in_are_kept(monkeypatch):
    """With room for two addresses: the one whose request has left is forgotten when a third
    arrives; the one whose request runs is kept, and leaves the queue in order."""
    monkeypatch.setattr(fair_queue, "MAX_TRACKED", 2)
    app = NamedHoldsApp("player 1")
    queue = FairQueue(app, slots=1)
    serve_straight_through(queue, OTHER, 1, "other")
    threads = [send(queue, "player 1", PLAYER)]
    wait_until(lambda: app.ran == ["other 1", "player 1"])
    threads.append(send(queue, "flood 1", FLOOD))
    wait_until(lambda: len(queue.waiting) == 1)
    assert set(queue.clients) == {PLAYER, FLOOD}
    app.let_go("player 1")
    for thread in threads:
        thread.join(PATIENCE)
    assert app.ran == ["other 1", "player 1", "flood 1"]
    assert set(answers) == {"other 1", "player 1", "flood 1"}
    assert queue.free == 1 and queue.clients[PLAYER].inside == 0
