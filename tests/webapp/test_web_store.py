"""The store as visitors meet it: readers leave nothing behind, a crowd never pushes out a
player, and a page whose game vanished carries on by itself."""

from __future__ import annotations

import http.client
import math
import threading
import time

import pytest
import redis
from werkzeug.serving import make_server

from engine import Game
from harness.player import game_id
from webapp.game import current
from webapp.i18n import LANGUAGES
from webapp.store import sessions

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
        return store.game_of(player.client).legal_moves()[0]

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
    assert stored_rows(app)["games"] == 20 + 300  # the visitors' first ten minutes are not over


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
        [[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=5))
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


#: The crowd check: a small cap, newcomers arriving in waves (each wave's pages load before any
#: of them moves) who make one move each, and a regular player who moves every REGULAR_EVERY.
CAP, NEWCOMERS, WAVE, REGULAR_EVERY, RECENT = 200, 320, 4, 50, 100


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def capped_app(request, make_web_app, tmp_path):
    """An app with SESSION_STORE_MAX_ENTRIES=CAP on each store in turn."""
    config = {"SESSION_STORE_MAX_ENTRIES": CAP, "PAGE_RATE_LIMIT": "100000/minute",
              "MOVE_RATE_LIMIT": "100000/minute"}  # every client here has one address
    if request.param == "redis":
        config.update(SESSION_BACKEND="redis", REDIS_URL=request.getfixturevalue("redis_url"))
    return make_web_app(tmp_path / "instance", **config)


def expiries(app, sid: str, game_id: str) -> tuple[float, float]:
    """When the stored session and game expire (seconds from now, read at one instant);
    -inf for one that is gone."""
    if app.config["SESSION_BACKEND"] == "redis":
        client = redis.Redis.from_url(app.config["REDIS_URL"])
        ttls = client.pipeline(transaction=True).pttl(f"session:{sid}").pttl(
            f"game:{game_id}").execute()
        return tuple(ttl / 1000 if ttl >= 0 else -math.inf for ttl in ttls)
    games = app.extensions["games"]
    connection, now = games.database.connection(), time.time()
    found = []
    for table, entry in (("sessions", sid), ("games", game_id)):
        row = connection.execute(f"SELECT played, last_played FROM {table} WHERE id = ?",
                                 (entry,)).fetchone()
        found.append(-math.inf if row is None else
                     games.retention.expires(bool(row[0]), row[1]) - now)
    return found[0], found[1]


def test_past_the_cap_no_recent_player_nor_the_regular_one_loses_session_or_game(
        capped_app, make_player, session_store):
    app, games = capped_app, capped_app.extensions["games"]

    def moved(player) -> bool:
        """One legal move of the player's game; whether it was applied to that game."""
        record = games.get(player.game)
        answer = player.move(record.game.legal_moves()[0] if record else "left")
        return answer.status_code == 200 and answer.headers["X-Game"] == record.id and \
            "Moved" in answer.text

    regular = make_player(app.test_client())
    assert moved(regular)
    newcomers, refused_first_moves, regular_refused = [], 0, 0
    while len(newcomers) < NEWCOMERS:
        wave = [make_player(app.test_client()) for _ in range(WAVE)]
        refused_first_moves += sum(not moved(player) for player in wave)
        newcomers += wave
        if len(newcomers) % REGULAR_EVERY == 0:
            regular_refused += not moved(regular)

    def kept(player) -> bool:
        sid = session_store(app).sid_of(player.client)
        session_left, game_left = expiries(app, sid, player.game)
        page = player.client.get("/")
        return game_id(page.text) == player.game and \
            "no longer on the server" not in page.text and session_left >= game_left > 0

    recent_lost = sum(not kept(player) for player in newcomers[-RECENT:])
    assert (refused_first_moves, regular_refused, recent_lost, kept(regular)) == (0, 0, 0, True)


def seeded_player(app, make_player, session_store):
    """A player of a seeded new game, and a function giving its game's first legal move."""
    player, store = make_player(app.test_client()), session_store(app)
    store.update(store.sid_of(player.client), game=Game.new(seed=21))

    def legal_move() -> str:
        return store.game_of(player.client).legal_moves()[0]
    return player, legal_move


def test_a_players_cookie_is_sent_again_on_the_first_move_of_each_day(app, make_player,
                                                                       session_store,
                                                                       monkeypatch):
    player, legal_move = seeded_player(app, make_player, session_store)
    assert "Set-Cookie" in player.move(legal_move()).headers  # the first move: now a player
    assert "Set-Cookie" not in player.move(legal_move()).headers
    monkeypatch.setattr(current, "today", lambda: sessions.today() + 1)  # the next day
    answer = player.move(legal_move())
    assert "Moved" in answer.text
    assert any(cookie.startswith("session=") for cookie in answer.headers.getlist("Set-Cookie"))


def test_an_expired_session_is_never_read_back(app, make_player, session_store):
    player, legal_move = seeded_player(app, make_player, session_store)
    store, sid = session_store(app), session_store(app).sid_of(player.client)
    assert "Moved" in player.move(legal_move()).text
    age = app.config["SESSION_LIFETIME_DAYS"] * 86400 + 60
    with app.extensions["games"].database.transaction() as connection:
        connection.execute("UPDATE sessions SET last_played = last_played - ? WHERE id = ?",
                           (age, sid))
    assert store.session(sid) is None
    page = player.client.get("/")
    assert game_id(page.text) != player.game


@pytest.mark.redis
def test_on_redis_every_move_renews_the_session_and_the_game_together(make_web_app, make_player,
                                                                     session_store, tmp_path,
                                                                     redis_url):
    app = make_web_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=redis_url)
    player, legal_move = seeded_player(app, make_player, session_store)
    client, sid = redis.Redis.from_url(redis_url), session_store(app).sid_of(player.client)
    assert "Moved" in player.move(legal_move()).text
    for key in (f"session:{sid}", f"game:{player.game}"):
        client.expire(key, 100)  # as if the player had paused for a long time
    assert "Moved" in player.move(legal_move()).text  # the same day: no new cookie
    session_left, game_left = expiries(app, sid, player.game)
    assert session_left >= game_left > app.config["SESSION_LIFETIME_DAYS"] * 86400 - 60


def test_a_player_renewing_the_session_at_the_cap_pushes_out_no_other_player(
        make_web_app, make_player, session_store, tmp_path):
    """At SQLite's cap, New game gives the session a fresh id: the old row turns into the
    renewed marker (unplayed) before the new one arrives, so the played pool never counts the
    session twice, and the least recently played player keeps the session."""
    app = make_web_app(tmp_path / "instance", SESSION_STORE_MAX_ENTRIES=3)
    store = session_store(app)
    players = [make_player(app.test_client()) for _ in range(3)]
    for player in players:  # the first is the least recently played
        assert "Moved" in player.move(store.game_of(player.client).legal_moves()[0]).text
    oldest, renewing = store.sid_of(players[0].client), store.sid_of(players[2].client)
    assert renewing is not None and store.session(oldest)["played"] is True
    assert players[2].post("/new").status_code == 200
    assert store.session(renewing) == sessions.RENEWED
    assert store.session(oldest) is not None
    assert game_id(players[0].client.get("/").text) == players[0].game
