"""Many requests for one game at once: none lost, none applied twice, on either store.

Tabs share one session and number their moves from one counter, so requests arrive out of
order and most numbers are not the next one (and refused) when they land. Every accepted move
(answered with its own number) must be in the final game, in number order, exactly once, and
the game's own numbering has no gap. Writes are compare-and-set, so the losers of a race
re-read and try again: nothing waits on a lock.
"""

from __future__ import annotations

import multiprocessing
import re
from concurrent.futures import ThreadPoolExecutor

from scale_support import Player, replay, store, stored, stored_game

from engine import DIRECTIONS, Game

TABS = 8
MOVES_PER_TAB = 20


def applied(answer, direction: str) -> bool:
    """Whether an answer reports its own move applied (a refused number announces nothing)."""
    return re.search(rf"(Moved|Nothing moves) {direction}\b", answer.text) is not None


def play_tab(first: Player, app, tab: int, accepted) -> None:
    """One tab's moves, each numbered one past the last number the server reported, as the
    page does; accepted[seq] = direction for each the server applied."""
    player = first.tab_on(app)
    seq = 0
    for step in range(MOVES_PER_TAB):
        direction = DIRECTIONS[(tab + step) % 4]
        answer = player.move(direction, seq + 1)
        assert answer.status_code == 200, answer.text
        if applied(answer, direction):
            accepted[seq + 1] = direction
        seq = int(answer.headers["X-Seq"])


def assert_final_game_is_the_replay(app, first: Player, start: dict, accepted: dict) -> None:
    final = stored(app, first.sid)
    assert final["seq"] == max(accepted) == len(accepted)
    assert final["game"] == replay(start, [accepted[seq] for seq in sorted(accepted)]).to_dict()
    assert len(accepted) > MOVES_PER_TAB  # the tabs did interleave


def test_concurrent_moves_from_threads_equal_the_sequential_replay(any_app):
    first = Player(any_app.test_client())
    start = stored(any_app, first.sid)["game"]
    accepted = {}
    with ThreadPoolExecutor(TABS) as pool:
        list(pool.map(lambda tab: play_tab(first, any_app, tab, accepted), range(TABS)))
    assert_final_game_is_the_replay(any_app, first, start, accepted)


def test_concurrent_moves_from_processes_equal_the_sequential_replay(any_app):
    """Each process is a separate worker with its own copy of the app, as under gunicorn."""
    first = Player(any_app.test_client())
    start = stored(any_app, first.sid)["game"]
    fork = multiprocessing.get_context("fork")
    manager = fork.Manager()
    accepted = manager.dict()
    workers = [fork.Process(target=play_tab, args=(first, any_app, tab, accepted))
               for tab in range(TABS // 2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert all(worker.exitcode == 0 for worker in workers)
    assert_final_game_is_the_replay(any_app, first, start, dict(accepted))
    manager.shutdown()


def test_one_move_retried_from_many_tabs_is_applied_once(any_app):
    first = Player(any_app.test_client())
    store(any_app, first.sid, Game.from_rows([[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=1))
    before = stored_game(any_app, first.sid)
    assert "left" in before.legal_moves()  # so a second application would show

    def retry(_: int) -> str:
        return first.tab_on(any_app).move("left", 1).headers["X-Seq"]

    with ThreadPoolExecutor(TABS) as pool:
        assert set(pool.map(retry, range(TABS * 2))) == {"1"}

    assert stored(any_app, first.sid)["game"] == replay(before.to_dict(), ["left"]).to_dict()


def test_a_move_meant_for_a_replaced_game_is_not_applied_to_the_new_one(any_app):
    """Tab A starts a new game while tab B, still showing the old one, sends its next move:
    B is told its game is stale (and fetches the current state), the new game stays untouched."""
    tab_a = Player(any_app.test_client())
    tab_b = tab_a.tab_on(any_app)
    assert tab_a.move("left", 1).headers["X-Seq"] == "1"
    assert tab_a.post("/new").status_code == 200
    tab_b.client.set_cookie("session", tab_a.sid)  # the browser's cookie jar is shared
    new_game = stored(any_app, tab_a.sid)

    answer = tab_b.move("right", 2)
    assert answer.status_code == 409 and answer.headers["X-Stale"] == "1"
    assert stored(any_app, tab_a.sid) == new_game
    state = tab_b.client.get(f"/state?game={tab_b.game}")
    assert state.headers["X-Game"] == new_game["id"] and state.headers["X-Seq"] == "0"
    assert "replaced by a new one in another tab" in state.text
