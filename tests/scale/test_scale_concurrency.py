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
import time
from concurrent.futures import ThreadPoolExecutor

from engine import DIRECTIONS, Game
from tests.scale.scale_support import Tab, replay, store, stored, stored_game
from tests.web_support import StoreView

TABS = 8
MOVES_PER_TAB = 20
SEED = 2048
#: A tab whose move was applied knows the newest number first, so without a pause the same tab
#: tends to win again and again; a player's pause between presses gives the others their turns.
WINNERS_PAUSE = 0.002  # seconds


def own_answer(answer, seq: int, direction: str) -> str | None:
    """What an answer carrying its own number reports: "applied" when it announces its move;
    "game over" when it announces the end, as the move that ends the game does, and also a
    repeated number once the game is over (so which tab's move that was is open); None for a
    number another tab used first."""
    if answer.headers["X-Seq"] != str(seq):
        return None
    if re.search(rf"(Moved|Nothing moves) {direction}\b", answer.text):
        return "applied"
    return "game over" if "Game over." in answer.text else None


def play_tab(first: Tab, app, tab: int, accepted, ending) -> None:
    """One tab's moves, each numbered one past the last number the server reported, as the
    page does, pausing after each of its own that was applied: accepted[seq] = (direction,
    tab) for each the server applied, and ending[(seq, direction)] for each answered with the
    game over."""
    player = first.tab_on(app)
    seq = 0
    for step in range(MOVES_PER_TAB):
        direction = DIRECTIONS[(tab + step) % 4]
        answer = player.move(direction, seq + 1)
        # 409: another tab used the number first, so this press is refused as stale
        assert answer.status_code in (200, 409), answer.text
        reported = own_answer(answer, seq + 1, direction)
        if reported == "applied":
            accepted[seq + 1] = (direction, tab)
            time.sleep(WINNERS_PAUSE)
        elif reported == "game over":
            ending[(seq + 1, direction)] = True
        seq = int(answer.headers["X-Seq"])


def assert_final_game_is_the_replay(app, first: Tab, start: Game, accepted: dict,
                                    ending: dict) -> None:
    """Every number was used once, in order, and the final game is the replay of the accepted
    moves (and, if the game ended, of the move that ended it: one of the directions sent with
    the first number answered "game over"; moves after the end change nothing)."""
    final = stored(app, first.sid)
    numbers = set(accepted) | {seq for seq, _ in ending}
    assert final["seq"] == max(numbers) == len(numbers)
    assert len({tab for _, tab in accepted.values()}) > 1  # the tabs did take turns
    moves = [accepted[seq][0] for seq in sorted(accepted)]
    end = min(numbers - set(accepted), default=None)
    assert end is None or max(accepted, default=0) < end
    endings = [[]] if end is None else [[d] for seq, d in ending if seq == end]
    assert final["game"] in [replay(start, moves + last).position for last in endings]


def seeded_player(app) -> tuple[Tab, Game]:
    """The first tab, on a game from SEED, and that game as stored."""
    first = Tab(app.test_client())
    store(app, first.sid, Game.new(SEED))
    return first, stored_game(app, first.sid)


def test_a_write_based_on_an_old_version_is_refused(any_app):
    """Two requests read the same version; the second write loses and must re-read."""
    player = Tab(any_app.test_client())
    games = any_app.extensions["games"]
    first, second = games.get(player.game), games.get(player.game)
    first.seq = 1
    assert games.replace(first) is True
    second.seq = 7
    assert games.replace(second) is False
    assert games.get(player.game).seq == 1


def test_concurrent_moves_from_threads_equal_the_sequential_replay(any_app):
    first, start = seeded_player(any_app)
    accepted, ending = {}, {}
    with ThreadPoolExecutor(TABS) as pool:
        list(pool.map(lambda tab: play_tab(first, any_app, tab, accepted, ending), range(TABS)))
    assert_final_game_is_the_replay(any_app, first, start, accepted, ending)


def test_concurrent_moves_from_processes_equal_the_sequential_replay(any_app):
    """Each process is a separate worker with its own copy of the app, as under gunicorn."""
    first, start = seeded_player(any_app)
    fork = multiprocessing.get_context("fork")
    manager = fork.Manager()
    accepted, ending = manager.dict(), manager.dict()
    workers = [fork.Process(target=play_tab, args=(first, any_app, tab, accepted, ending))
               for tab in range(TABS // 2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert all(worker.exitcode == 0 for worker in workers)
    assert_final_game_is_the_replay(any_app, first, start, dict(accepted), dict(ending))
    manager.shutdown()


def test_one_move_retried_from_many_tabs_is_applied_once(any_app):
    first = Tab(any_app.test_client())
    store(any_app, first.sid, Game.from_rows([[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=1))
    before = StoreView(any_app).game(first.sid)
    assert "left" in before.legal_moves()  # so a second application would show

    def retry(_: int) -> str:
        return first.tab_on(any_app).move("left", 1).headers["X-Seq"]

    with ThreadPoolExecutor(TABS) as pool:
        assert set(pool.map(retry, range(TABS * 2))) == {"1"}

    assert stored(any_app, first.sid)["game"] == replay(before, ["left"]).position


def test_a_move_meant_for_a_replaced_game_is_not_applied_to_the_new_one(any_app):
    """Tab A starts a new game while tab B, still showing the old one, sends its next move:
    B is told its game is stale (and fetches the current state), the new game stays untouched."""
    tab_a = Tab(any_app.test_client())
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
