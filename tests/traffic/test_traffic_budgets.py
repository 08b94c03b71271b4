"""The limits on every route that has one: moves, undos, new games and keep playing draw on one
budget, hints on their own, each per session and per client address (the address's a multiple of
the session's); page loads and reads of a game's history on one per client address; every 429
says when to come back (Retry-After: the seconds left in its window) and changes nothing; once
refused, a client is refused at the door (the app does no work) until the window ends. Every
worker process on the host counts one budget. Request bodies may be 4 KiB, not a byte more."""

from __future__ import annotations

import multiprocessing
import os
import random
import sqlite3
import time
from contextlib import contextmanager

import pytest
from flask import request_started

from engine import Game
from tests.web_support import StoreView
from webapp.game.controls import AUTOPLAY_SPEEDS
from webapp.traffic import counters as counters_module

GAME_CHANGES = {"move": lambda player: player.move("left"),
                "undo": lambda player: player.post("/undo", seq=str(player.seq + 1)),
                "new game": lambda player: player.post("/new"),
                "keep playing": lambda player: player.post("/keep-playing")}
MINUTE = 60
HOUR = 3600  # the hints' test windows: the solver's first search, a compile, may take a while
BODY_LIMIT = 4 * 1024
OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def assert_waits_for_the_window(answer, started: float, window: int = MINUTE) -> None:
    """A 429 whose Retry-After is what is left of a window of `window` seconds opened at
    `started` (time.monotonic()), give or take its rounding."""
    assert answer.status_code == 429
    left = window - (time.monotonic() - started)
    # The window's end is rounded up, so a wait of the whole window may read one more.
    assert left - 1 <= int(answer.headers["Retry-After"]) <= window + 1


def assert_refused(answer, message: str, started: float, window: int = MINUTE) -> None:
    """A 429 with a message for the player and the wait left in its window."""
    assert message in answer.text
    assert_waits_for_the_window(answer, started, window)


def player_at(app, make_player, address: str):
    """A new player (a fresh session) on this client address."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return make_player(client)


@pytest.mark.parametrize("refused", GAME_CHANGES)
def test_moves_undos_new_games_and_keep_playing_share_one_budget(
        tmp_path, make_web_app, make_player, session_store, refused):
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="3/minute")
    store = session_store(app)
    player = make_player(app.test_client())
    started = time.monotonic()
    spent = [GAME_CHANGES[name](player).status_code for name in ("move", "keep playing", "undo")]
    assert spent == [200, 200, 200]
    before = store.read(store.sid_of(player.client))
    assert_refused(GAME_CHANGES[refused](player), "Too many moves", started)
    assert store.read(store.sid_of(player.client)) == before
    assert make_player(app.test_client()).move("up").status_code == 200  # others play on


def test_a_new_game_under_a_fresh_session_id_does_not_refill_the_budget(
        tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="2/minute")
    player = make_player(app.test_client())
    started = time.monotonic()
    ids = [player.post("/new").headers.get("X-Game") for _ in range(2)]
    assert None not in ids and len(set(ids)) == 2  # two new games, each under a new session id
    assert_refused(player.post("/new"), "Too many moves", started)


def test_an_address_gets_a_multiple_of_a_sessions_moves(tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="1/minute",
                       ADDRESS_BUDGET_SESSIONS=3)
    started = time.monotonic()
    moved = [player_at(app, make_player, "192.0.2.1").move("left").status_code for _ in range(3)]
    assert moved == [200, 200, 200]  # three players behind one address play on
    assert_refused(player_at(app, make_player, "192.0.2.1").move("left"), "Too many moves",
                   started)
    assert player_at(app, make_player, "192.0.2.2").move("left").status_code == 200


def test_a_class_behind_one_address_plays_at_a_persons_pace_on_the_default_budgets(
        tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance")
    players = [player_at(app, make_player, "192.0.2.1") for _ in range(20)]
    for direction in ("left", "up", "right", "down", "left"):  # five keys each, within seconds
        assert {player.move(direction).status_code for player in players} == {200}
    assert {player.post("/hint").status_code for player in players} == {200}


def test_hints_have_their_own_budget_per_session(tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", SOLVER_RATE_LIMIT="2/hour",
                       MOVE_RATE_LIMIT="1/minute")
    player = make_player(app.test_client())
    assert player.move("left").status_code == 200
    assert player.move("up").status_code == 429  # moves used up: hints are still there
    started = time.monotonic()
    assert [player.post("/hint").status_code for _ in range(2)] == [200, 200]
    assert_refused(player.post("/hint"), "The solver needs a short break", started, HOUR)
    assert make_player(app.test_client()).post("/hint").status_code == 200


def test_auto_play_moves_draw_on_the_solver_budget_not_the_moves_one(tmp_path, make_web_app,
                                                                     make_player):
    app = make_web_app(tmp_path / "instance", SOLVER_RATE_LIMIT="1/hour")
    player = make_player(app.test_client())
    started = time.monotonic()
    assert player.post("/solver-move", seq="1").status_code == 200
    assert_refused(player.post("/solver-move", seq="2"), "The solver needs a short break",
                   started, HOUR)
    assert player.post("/hint").status_code == 429  # the same budget as hints
    assert player.move("left").status_code == 200


def test_auto_play_at_its_top_speed_is_never_refused_on_the_default_budgets(
        tmp_path, make_web_app, make_player, monkeypatch):
    """Two minutes of auto-play at its top speed: the page asks 1/top seconds apart, and each
    request reaches the server up to 50 ms late (a busy link or worker), so a second may see
    more than `top` of them. On a finished game, so that the solver does no work: the budget
    is drawn all the same. (The old default, 10/second;600/minute, refused some.)"""
    app = make_web_app(tmp_path / "instance")
    player = make_player(app.test_client())
    store = StoreView(app)
    store.update(store.sid_of(player.client), game=Game.from_rows(OVER, seed=1))
    top, now, late = AUTOPLAY_SPEEDS["max"], time.time(), random.Random(7)
    clock = [now]
    monkeypatch.setattr(counters_module.time, "time", lambda: clock[0])
    refused = []
    for number in range(2 * MINUTE * top):
        clock[0] = now + number / top + late.uniform(0, 0.05)
        if player.post("/solver-move", seq=str(player.seq + 1)).status_code == 429:
            refused.append(number)
    assert refused == []


def test_hints_are_also_limited_per_address_since_new_sessions_cost_nothing(
        tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", SOLVER_RATE_LIMIT="1/hour",
                       ADDRESS_BUDGET_SESSIONS=2)

    def hint_from(address: str):
        return player_at(app, make_player, address).post("/hint")

    started = time.monotonic()
    assert [hint_from("192.0.2.1").status_code for _ in range(2)] == [200, 200]
    assert_refused(hint_from("192.0.2.1"), "The solver needs a short break", started, HOUR)
    assert hint_from("192.0.2.2").status_code == 200


def test_reading_histories_is_limited_per_address(tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", HISTORY_RATE_LIMIT="1/minute")
    player = make_player(app.test_client())
    started = time.monotonic()
    assert player.client.get(f"/games/{player.game}").status_code == 200
    assert_waits_for_the_window(player.client.get(f"/games/{player.game}"), started)
    assert player_at(app, make_player, "192.0.2.2").client.get(
        f"/games/{player.game}").status_code == 200


def test_page_loads_are_limited_per_address_whatever_the_session(tmp_path, make_web_app):
    app = make_web_app(tmp_path / "instance", PAGE_RATE_LIMIT="2/minute")

    def load(address: str):
        return app.test_client().get("/", environ_base={"REMOTE_ADDR": address})

    started = time.monotonic()
    assert [load("192.0.2.1").status_code for _ in range(2)] == [200, 200]
    refused = load("192.0.2.1")  # a fresh client, so a fresh session: the address counts
    assert_waits_for_the_window(refused, started)
    assert "Set-Cookie" not in refused.headers  # no session started for it
    assert refused.mimetype == "text/html"  # the site's own page, saying what to do
    assert '<header class="site-header">' in refused.text
    assert "<h1>Too many requests</h1>" in refused.text and "Wait a minute" in refused.text
    assert load("192.0.2.2").status_code == 200


def test_every_process_on_the_host_draws_on_one_budget(tmp_path, make_web_app, make_player):
    instance = tmp_path / "instance"
    settings = {"MOVE_RATE_LIMIT": "2/minute", "ADDRESS_BUDGET_SESSIONS": 1}

    def spend_the_addresss_budget_in_another_process() -> None:
        app = make_web_app(instance, **settings)
        moved = [player_at(app, make_player, "192.0.2.1").move("left").status_code
                 for _ in range(2)]
        os._exit(0 if moved == [200, 200] else 1)

    started = time.monotonic()
    worker = multiprocessing.get_context("fork").Process(
        target=spend_the_addresss_budget_in_another_process)
    worker.start()
    worker.join(timeout=60)
    assert worker.exitcode == 0
    app = make_web_app(instance, **settings)
    assert_refused(player_at(app, make_player, "192.0.2.1").move("left"), "Too many moves",
                   started)
    assert player_at(app, make_player, "192.0.2.2").move("left").status_code == 200


@contextmanager
def requests_the_app_handles(app):
    """The requests that reach the app's own handling (Flask's request_started), as a list."""
    handled = []

    def note(sender, **_):
        handled.append(sender)
    request_started.connect(note, app)
    try:
        yield handled
    finally:
        request_started.disconnect(note, app)


def test_a_refused_session_is_refused_at_the_door_until_its_window_ends(
        tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="1/minute")
    player = make_player(app.test_client())
    started = time.monotonic()
    assert player.move("left").status_code == 200
    assert_refused(player.move("up"), "Too many moves", started)
    with requests_the_app_handles(app) as handled:
        for direction in ("up", "down"):
            assert_refused(player.move(direction), "Too many moves", started)
        assert handled == []
        assert player.post("/hint").status_code == 200  # another budget: served as ever
        assert player_at(app, make_player, "192.0.2.2").move("up").status_code == 200


def test_a_page_load_refused_again_gets_the_sites_page_not_the_doors_fragment(
        tmp_path, make_web_app):
    """The door answers only the page's script (POST): a reader who reloads a refused page gets
    the site's own page from the app every time."""
    app = make_web_app(tmp_path / "instance", PAGE_RATE_LIMIT="1/minute")
    client = app.test_client()
    assert client.get("/").status_code == 200
    with requests_the_app_handles(app) as handled:
        for _ in range(2):
            refused = client.get("/")
            assert refused.status_code == 429 and '<header class="site-header">' in refused.text
            assert "<h1>Too many requests</h1>" in refused.text
        assert len(handled) == 2


def test_a_refused_address_is_refused_at_the_door_in_every_session(
        tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", SOLVER_RATE_LIMIT="1/hour",
                       ADDRESS_BUDGET_SESSIONS=1)
    started = time.monotonic()
    assert player_at(app, make_player, "192.0.2.1").post("/hint").status_code == 200
    assert player_at(app, make_player, "192.0.2.1").post("/hint").status_code == 429
    newcomer = player_at(app, make_player, "192.0.2.1")
    with requests_the_app_handles(app) as handled:
        assert_refused(newcomer.post("/hint"), "The solver needs a short break", started, HOUR)
        assert handled == []
    assert newcomer.move("left").status_code == 200
    assert player_at(app, make_player, "192.0.2.2").post("/hint").status_code == 200


def test_a_client_back_before_its_wait_is_over_gets_its_answer_a_second_later(
        tmp_path, make_web_app, make_player):
    """A script that ignores Retry-After gets one answer a second per connection, not hundreds;
    once REFUSAL_HOLD_THREADS threads hold such answers, the next is answered at once."""
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="1/minute", REFUSAL_HOLD_THREADS=2)
    player = make_player(app.test_client())
    started = time.monotonic()
    assert player.move("left").status_code == 200
    assert_refused(player.move("up"), "Too many moves", started)  # the budget's own refusal
    asked = time.monotonic()
    assert_refused(player.move("up"), "Too many moves", started)  # at the door, held
    assert time.monotonic() - asked >= 1.0
    gate = app.extensions["refusal_gate"]
    for _ in range(2):  # every holding thread busy
        assert gate.holding.acquire(blocking=False)
    asked = time.monotonic()
    assert_refused(player.move("up"), "Too many moves", started)
    assert time.monotonic() - asked < 0.5


def form_of_length(game: str, length: int) -> bytes:
    """A valid move's form for this game, padded to exactly `length` bytes."""
    form = f"game={game}&direction=left&seq=1&padding=".encode()
    return form + b"x" * (length - len(form))


def test_a_body_of_exactly_4_kib_is_read_and_one_byte_more_is_refused(player, store):
    sid = store.sid_of(player.client)
    before = store.read(sid)
    headers = {"X-CSRFToken": player.token}
    too_large = player.client.post("/move", data=form_of_length(player.game, BODY_LIMIT + 1), headers=headers,
                                   content_type="application/x-www-form-urlencoded")
    assert too_large.status_code == 413
    assert 'id="message"' in too_large.text and "too large" in too_large.text
    assert store.read(sid) == before
    at_limit = player.client.post("/move", data=form_of_length(player.game, BODY_LIMIT), headers=headers,
                                  content_type="application/x-www-form-urlencoded")
    assert at_limit.status_code == 200
    assert at_limit.headers["X-Seq"] == "1"


def test_every_page_that_can_start_a_game_draws_on_one_page_budget(tmp_path, make_web_app):
    app = make_web_app(tmp_path / "instance", PAGE_RATE_LIMIT="3/minute")
    client = app.test_client()
    assert [client.get(path).status_code for path in ("/", "/pl/", "/state")] == [200, 200, 200]
    assert client.get("/ja/").status_code == 429
    assert client.get("/en/rules").status_code == 200  # reading stores nothing: no budget


def test_a_budget_of_two_windows_refuses_on_the_shortest_first(tmp_path, make_web_app,
                                                             make_player):
    """A second move within the second is refused by the second's window (come back in a
    second), not by the minute's."""
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="1/second;1/minute")
    player = make_player(app.test_client())
    assert player.move("left").status_code == 200
    refused = player.move("up")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"


def test_each_history_route_draws_on_a_history_budget_of_its_own(tmp_path, make_web_app,
                                                                 make_player):
    app = make_web_app(tmp_path / "instance", HISTORY_RATE_LIMIT="1/minute")
    player = make_player(app.test_client())
    reads = [f"/games/{player.game}", f"/games/{player.game}/position?move=0",
             f"/games/{player.game}/review", f"/games/{player.game}/review/progress", "/games"]
    assert [player.client.get(path).status_code for path in reads] == [200] * len(reads)
    assert [player.client.get(path).status_code for path in reads] == [429] * len(reads)


def test_a_move_the_counters_cannot_count_goes_through_and_the_log_says_where_and_why(
        tmp_path, make_web_app, make_player, caplog):
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="1/minute",
                       SQLITE_BUSY_TIMEOUT=0.2)
    player = make_player(app.test_client())
    counters = tmp_path / "instance" / "games-limits.sqlite3"
    holder = sqlite3.connect(counters, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's draw, holding the lock
    try:
        moved = [player.move(direction).status_code for direction in ("left", "up")]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert moved == [200, 200]  # over the budget, but nothing could count it
    assert (f"rate limits not counted ({counters}): OperationalError: database is locked"
            in caplog.text)
