"""Many requests for one game at once: none lost, none applied twice, on either store.

Tabs share one session and number their moves from one counter, so requests arrive out of
order and some numbers are already passed (and refused) when they land. Every accepted move
(answered with its own number) must be in the final game, in number order, exactly once.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

from scale_support import Player, replay, stored, stored_game

from engine import DIRECTIONS

TABS = 8
MOVES_PER_TAB = 20


def play_tab(first: Player, app, tab: int, numbers, accepted) -> None:
    """One tab's moves; accepted[seq] = direction for each the server applied."""
    player = first.tab_on(app)
    for step in range(MOVES_PER_TAB):
        direction = DIRECTIONS[(tab + step) % 4]
        with numbers.get_lock():
            numbers.value += 1
            seq = numbers.value
        answer = player.move(direction, seq)
        assert answer.status_code == 200, answer.text
        if answer.headers["X-Seq"] == str(seq):
            accepted[seq] = direction


def assert_final_game_is_the_replay(app, first: Player, start: dict, accepted: dict) -> None:
    final = stored(app, first.sid)
    assert final["seq"] == max(accepted)
    assert final["game"] == replay(start, [accepted[seq] for seq in sorted(accepted)]).to_dict()
    assert len(accepted) > MOVES_PER_TAB  # the tabs did interleave


def test_concurrent_moves_from_threads_equal_the_sequential_replay(any_app):
    first = Player(any_app.test_client())
    start = stored(any_app, first.sid)["game"]
    numbers, accepted = multiprocessing.Value("i", 0), {}
    with ThreadPoolExecutor(TABS) as pool:
        list(pool.map(lambda tab: play_tab(first, any_app, tab, numbers, accepted), range(TABS)))
    assert_final_game_is_the_replay(any_app, first, start, accepted)


def test_concurrent_moves_from_processes_equal_the_sequential_replay(any_app):
    """Each process is a separate worker with its own copy of the app, as under gunicorn."""
    first = Player(any_app.test_client())
    start = stored(any_app, first.sid)["game"]
    fork = multiprocessing.get_context("fork")
    numbers, manager = fork.Value("i", 0), fork.Manager()
    accepted = manager.dict()
    workers = [fork.Process(target=play_tab, args=(first, any_app, tab, numbers, accepted))
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
    before = stored_game(any_app, first.sid)

    def retry(_: int) -> str:
        return first.tab_on(any_app).move("left", 1).headers["X-Seq"]

    with ThreadPoolExecutor(TABS) as pool:
        assert set(pool.map(retry, range(TABS * 2))) == {"1"}

    assert stored(any_app, first.sid)["game"] == replay(before.to_dict(), ["left"]).to_dict()


def test_a_move_meant_for_a_replaced_game_is_not_applied_to_the_new_one(any_app):
    """Tab A starts a new game while tab B, still showing the old one, sends its next move:
    B gets the new board back, and the new game stays untouched."""
    tab_a = Player(any_app.test_client())
    tab_b = tab_a.tab_on(any_app)
    assert tab_a.move("left", 1).headers["X-Seq"] == "1"
    assert tab_a.post("/new").status_code == 200
    new_game = stored(any_app, tab_a.sid)["game"]

    answer = tab_b.move("right", 2)
    assert answer.status_code == 200
    assert stored(any_app, tab_a.sid)["game"] == new_game
    assert int(answer.headers["X-Seq"]) >= 2
