"""The fair queue in front of the app: when more requests wait than a process runs at once, the
client address that holds no place and was served least goes first, whatever the order of
arrival; nothing is refused, however many requests one address has waiting. Each test runs real threads through the real middleware around a WSGI app that holds the
first request until the test lets it go."""

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


#: Each request's status and body, by its name.
answers: dict[str, tuple[str, bytes]] = {}


def send(queue: FairQueue, name: str, address: str, method: str = "POST") -> threading.Thread:
    """One request through the queue, on a thread of its own; its status lands in `answers`."""
    def run() -> None:
        statuses = []
        body = queue({"NAME": name, "REMOTE_ADDR": address, "REQUEST_METHOD": method},
                     lambda status, headers: statuses.append(status))
        answers[name] = (statuses[0], b"".join(body))
    thread = threading.Thread(target=run)
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


@pytest.fixture(autouse=True)
def fresh_answers():
    answers.clear()


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
