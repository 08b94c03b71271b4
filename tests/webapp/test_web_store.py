"""The store as visitors meet it: readers leave nothing behind, a crowd never pushes out a
player, and a page whose game vanished carries on by itself."""

from __future__ import annotations

import http.client
import threading

import pytest
from werkzeug.serving import make_server

from engine import Game

from webapp.i18n import LANGUAGES

INFO_PAGES = [f"/{lang}/{page}" for lang in LANGUAGES for page in ("rules", "strategy", "solver")]


def stored_rows(app) -> dict[str, int]:
    connection = app.extensions["games"].database.connection()
    return {table: connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("games", "sessions")}


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_info_pages_set_no_cookie_and_store_nothing(app, method):
    client = app.test_client()
    assert client.get("/").status_code == 200  # positive control: the game page does store
    before = stored_rows(app)
    assert before == {"games": 1, "sessions": 1}
    fresh = app.test_client()
    for path in INFO_PAGES:
        answer = fresh.open(path, method=method)
        assert answer.status_code == 200, path
        assert "Set-Cookie" not in answer.headers, path
    assert stored_rows(app) == before


def test_a_crowd_of_cookieless_page_loads_never_pushes_out_a_player(make_web_app, make_player,
                                                                     session_store, tmp_path):
    app = make_web_app(tmp_path / "instance", SESSION_STORE_MAX_ENTRIES=30,
                       PAGE_RATE_LIMIT="100000/minute")
    store = session_store(app)

    def legal_move(player) -> str:
        return Game.from_dict(store.read(store.sid_of(player.client))["game"]).legal_moves()[0]

    players, games = [], {}
    for _ in range(20):
        players.append(player := make_player(app.test_client()))
        assert "Moved" in player.move(legal_move(player)).text  # a real move: now a player
        games[id(player)] = player.game
    for _ in range(300):
        assert app.test_client().get("/").status_code == 200
    for player in players:
        answer = player.move(legal_move(player))
        assert answer.status_code == 200 and answer.headers["X-Game"] == games[id(player)]
        assert answer.headers["X-Seq"] == "2"
    assert stored_rows(app)["games"] <= 30 + 3


def test_a_page_whose_game_vanished_is_told_and_given_a_new_one(app, player):
    with app.extensions["games"].database.transaction() as connection:
        connection.execute("DELETE FROM games WHERE id = ?", (player.game,))
    stale = player.move("left")
    assert stale.status_code == 409 and stale.headers["X-Stale"] == "1"
    state = player.client.get(f"/state?game={player.game}")
    assert state.status_code == 200 and state.headers["Cache-Control"] == "no-store"
    assert "no longer on the server, so a new one has started" in state.text
    assert state.headers["X-Game"] != player.game and state.headers["X-Seq"] == "0"
    player.token, player.game = state.headers["X-CSRF-Token"], state.headers["X-Game"]
    assert player.move("left").headers["X-Seq"] == "1"


def test_a_page_whose_session_vanished_gets_a_fresh_token_from_the_state(app, player):
    player.client.delete_cookie("session")
    refused = player.move("left")
    assert refused.status_code == 400 and refused.headers["X-Stale"] == "1"
    state = player.client.get(f"/state?game={player.game}")
    assert "no longer on the server" in state.text
    player.token, player.game = state.headers["X-CSRF-Token"], state.headers["X-Game"]
    assert player.move("left").status_code == 200


def test_the_state_of_a_page_that_is_up_to_date_carries_no_message(player):
    state = player.client.get(f"/state?game={player.game}")
    assert state.headers["X-Game"] == player.game
    assert 'role="alert"></p>' in state.text


@pytest.fixture
def served(app):
    """The app on a real HTTP server thread (werkzeug's, which reads chunked bodies)."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    thread.join()


@pytest.mark.parametrize("padding, status", [(10, 200), (4096, 413), (100_000, 413)])
def test_a_chunked_body_is_held_to_the_same_4_kib_cap(app, served, make_player, padding, status):
    player = make_player(app.test_client())
    body = f"direction=left&seq=1&game={player.game}&padding=".encode() + b"x" * padding
    connection = http.client.HTTPConnection("127.0.0.1", served, timeout=10)
    connection.request("POST", "/move", body=iter([body[:1000], body[1000:]]), headers={
        "X-CSRFToken": player.token, "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"session={player.client.get_cookie('session').value}",
    }, encode_chunked=True)
    answer = connection.getresponse()
    assert answer.status == status
    assert (b"too large" in answer.read()) is (status == 413)


def test_every_move_pushes_the_games_expiry_and_an_expired_game_is_never_read_back(
        make_web_app, make_player, session_store, tmp_path):
    app = make_web_app(tmp_path / "instance", SESSION_LIFETIME_DAYS=1)
    player, store = make_player(app.test_client()), session_store(app)
    store.update(store.sid_of(player.client), game=Game.from_rows(
        [[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=5).to_dict())
    database = app.extensions["games"].database

    def age(seconds: float) -> None:
        with database.transaction() as connection:
            connection.execute("UPDATE games SET last_played = last_played - ? WHERE id = ?",
                               (seconds, player.game))

    assert "Moved" in player.move("right").text
    age(86400 - 60)  # a minute of its day left
    assert "Moved" in player.move("down").text  # still there, and this move renews it
    age(120)
    assert player.move("left").status_code == 200  # a day from the last move, not the first
    age(86400)
    assert player.move("up").status_code == 409  # expired: gone for good
    assert "no longer on the server" in player.client.get("/").text
