"""The limits on every route that has one: moves, new games and keep playing draw on one budget per
session, hints on their own (per session and per address), page loads on one per client address; every 429 says when to come
back (Retry-After) and changes nothing. Request bodies may be 4 KiB, not a byte more."""

from __future__ import annotations

import pytest

GAME_CHANGES = {"move": lambda player: player.move("left"),
                "new game": lambda player: player.post("/new"),
                "keep playing": lambda player: player.post("/keep-playing")}
MINUTE = 60
BODY_LIMIT = 4 * 1024


def assert_refused(answer, message: str) -> None:
    """A 429 with a message for the player and a wait within the budget's one-minute window."""
    assert answer.status_code == 429
    assert message in answer.text
    # Flask-Limiter rounds the window's end up, so a wait of the whole minute may read 61.
    assert 1 <= int(answer.headers["Retry-After"]) <= MINUTE + 1


@pytest.mark.parametrize("refused", GAME_CHANGES)
def test_moves_new_games_and_keep_playing_share_one_budget(tmp_path, make_web_app, make_player,
                                                            session_store, refused):
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="3/minute")
    store = session_store(app)
    player = make_player(app.test_client())
    # (A new game comes under a new session id, with a budget of its own: it goes last.)
    spent = [GAME_CHANGES[name](player).status_code for name in ("move", "keep playing", "move")]
    assert spent == [200, 200, 200]
    before = store.read(store.sid_of(player.client))
    assert_refused(GAME_CHANGES[refused](player), "Too many moves")
    assert store.read(store.sid_of(player.client)) == before
    assert make_player(app.test_client()).move("up").status_code == 200  # others play on


def test_hints_have_their_own_budget_per_session(tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", SOLVER_RATE_LIMIT="2/minute",
                       MOVE_RATE_LIMIT="1/minute")
    player = make_player(app.test_client())
    assert player.move("left").status_code == 200
    assert player.move("up").status_code == 429  # moves used up: hints are still there
    assert [player.post("/hint").status_code for _ in range(2)] == [200, 200]
    assert_refused(player.post("/hint"), "The solver needs a short break")
    assert make_player(app.test_client()).post("/hint").status_code == 200


def test_hints_are_also_limited_per_address_since_new_sessions_cost_nothing(
        tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", SOLVER_ADDRESS_RATE_LIMIT="2/minute")

    def hint_from(address: str):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = address
        return make_player(client).post("/hint")

    assert [hint_from("192.0.2.1").status_code for _ in range(2)] == [200, 200]
    assert_refused(hint_from("192.0.2.1"), "The solver needs a short break")
    assert hint_from("192.0.2.2").status_code == 200


def test_page_loads_are_limited_per_address_whatever_the_session(tmp_path, make_web_app):
    app = make_web_app(tmp_path / "instance", PAGE_RATE_LIMIT="2/minute")

    def load(address: str):
        return app.test_client().get("/", environ_base={"REMOTE_ADDR": address})

    assert [load("192.0.2.1").status_code for _ in range(2)] == [200, 200]
    refused = load("192.0.2.1")  # a fresh client, so a fresh session: the address counts
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= MINUTE + 1
    assert "Set-Cookie" not in refused.headers  # no session started for it
    assert load("192.0.2.2").status_code == 200


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
