"""A database that cannot be written, and garbage in the store: a 503 or a fresh start,
never a 500, nothing half-written, and play resumes by itself once the fault is gone."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import threading
from contextlib import contextmanager
from pathlib import Path

import msgspec
import pytest

from engine import Game
from harness.player import csrf_token, game_id
from tests.leaderboard.leaderboard_support import edit_stored

FIELD_GARBAGE = {
    "version": "'many'", "seq": "x'00ff'", "played": "'yes'", "assisted": "3.5",
    "created": "'yesterday'", "last_played": "'soon'", "game": "'{'",
    "score": "'lots'",
}


@contextmanager
def immutable(*paths: Path):
    """The files cannot be changed, not even by root (chattr +i), until the block ends."""
    subprocess.run(["chattr", "+i", *map(str, paths)], check=True)
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, paths)], check=True)


def database_files(app) -> list[Path]:
    """The database and its write-ahead log (the shared-memory index stays writable: SQLite
    maps it into memory, where a refused write would be a crash, not an error)."""
    path = app.extensions["games"].database.path
    return [file for file in (path, Path(f"{path}-wal")) if file.exists()]


def test_a_database_that_cannot_be_written_is_a_503_then_play_resumes(app, player, store):
    before = store.read(store.sid_of(player.client))
    direction = store.game_of(player.client).legal_moves()[0]
    with immutable(*database_files(app)):
        answer = player.post("/move", direction=direction, seq="1")
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
        assert "reach the game server" in answer.text
    assert store.read(store.sid_of(player.client)) == before  # nothing written
    assert player.post("/move", direction=direction, seq="1").headers["X-Seq"] == "1"


def test_a_full_database_is_a_503_that_changes_nothing_then_play_resumes(
        make_web_app, make_player, session_store, tmp_path):
    """New games fill the file's last free pages until a write needs one it may not have
    (the request's connection may not grow the file): that request is a 503, and the player
    keeps the session and the game they had. The failed connection is dropped, so the next
    request, on a fresh one, goes through."""
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="100000/second")
    player, store = make_player(app.test_client()), session_store(app)
    connection = app.extensions["games"].database.connection()
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")
    for _ in range(200):
        sid, before = store.sid_of(player.client), store.read(store.sid_of(player.client))
        answer = player.post("/new")
        if answer.status_code == 503:
            break
    assert answer.status_code == 503 and "reach the game server" in answer.text
    assert store.sid_of(player.client) == sid and store.read(sid) == before
    assert player.post("/new").status_code == 200
    assert player.move("left").status_code == 200


@pytest.mark.parametrize("column", FIELD_GARBAGE)
def test_a_garbage_game_record_is_a_new_game_and_a_warning(app, player, store, caplog, column):
    database = app.extensions["games"].database
    with database.transaction() as connection:
        connection.execute(f"UPDATE games SET {column} = {FIELD_GARBAGE[column]} WHERE id = ?",
                           (player.game,))
    with caplog.at_level(logging.WARNING, logger="webapp.store.sqlite_games"):
        page = player.client.get("/")
    assert page.status_code == 200
    assert "does not read back" in caplog.text
    assert "no longer on the server" in page.text
    assert store.read(store.sid_of(player.client))["id"] != player.game


#: A saved game whose position (the history's end) lost or gained a key, and what the log names.
END_DAMAGE = {
    "an end without last_points": (lambda end: end.pop("last_points"),
                                   "end keys: missing 'last_points'"),
    "an end with a key too many": (lambda end: end.update(won=True), "end keys: unexpected 'won'"),
}


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
@pytest.mark.parametrize("damage", END_DAMAGE)
def test_a_saved_game_with_an_end_key_missing_or_extra_is_a_damaged_record_never_a_500(
        request, make_web_app, make_player, tmp_path, caplog, backend, damage):
    """With the end's keys unchecked, a missing one would be a KeyError and a 500."""
    settings = ({"SESSION_BACKEND": "redis", "REDIS_URL": request.getfixturevalue("redis_url")}
                if backend == "redis" else {})
    app = make_web_app(tmp_path / "instance", **settings)
    player = make_player(app.test_client())
    assert player.move("left").status_code == player.move("up").status_code == 200
    change, named = END_DAMAGE[damage]
    damaged = player.game
    edit_stored(app, damaged, lambda saved: change(saved["end"]))
    with caplog.at_level(logging.WARNING):
        answer = player.move("right")
    assert answer.status_code == 409 and answer.headers["X-Stale"] == "1"
    assert "This game is no longer on the server." in answer.text
    assert f"game {damaged} does not read back, ignored: {named}" in caplog.text
    page = player.client.get("/")
    assert page.status_code == 200 and game_id(page.text) != damaged
    assert "previous game is no longer on the server, so a new one has started" in page.text


SESSION_GARBAGE = {
    "not msgpack": b"\xc1\xc1\xc1",
    "a list": msgspec.msgpack.encode([1, 2]),
    "a number": msgspec.msgpack.encode(7),
    "token not a string": {"csrf_token": 12345},
    "token a list": {"csrf_token": ["a"]},
    "game id a number": {"game": 42},
    "game id of nothing": {"game": "A" * 22},
    "earlier games not ids": {"games": ["../x"]},
    "played a string": {"played": "yes"},
    "unknown keys": {"is_admin": True},
}


@pytest.mark.parametrize("garbage", SESSION_GARBAGE.values(), ids=SESSION_GARBAGE.keys())
def test_a_garbage_session_is_mended_or_started_afresh_never_a_500(app, player, store, garbage):
    """What can be read of a damaged session is kept (a game it names survives a bad token or
    a bad list of earlier games); the garbage itself never stays, and the page plays on."""
    sid = store.sid_of(player.client)
    data = store.session(sid)
    raw = garbage if isinstance(garbage, bytes) else msgspec.msgpack.encode({**data, **garbage})
    with app.extensions["games"].database.transaction() as connection:
        connection.execute("UPDATE sessions SET data = ? WHERE id = ?", (raw, sid))
    page = player.client.get("/")
    assert page.status_code == 200
    shown = game_id(page.text)
    if isinstance(garbage, dict) and "game" not in garbage:
        assert shown == data["game"]  # the game survives damage elsewhere in its session
    player.token, player.game = csrf_token(page.text), shown
    for path in ("/move", "/hint", "/keep-playing"):
        answer = player.post(path, direction="left", seq="1")
        assert answer.status_code == 200, (path, answer.status_code)
    session = store.session(store.sid_of(player.client))
    assert session["game"] == shown
    for key, value in (garbage.items() if isinstance(garbage, dict) else ()):
        assert session.get(key) != value, key


def test_a_held_write_lock_is_a_503_after_the_busy_timeout_then_the_move_applies_once(
        make_web_app, make_player, session_store, tmp_path, caplog):
    app = make_web_app(tmp_path / "instance", SQLITE_BUSY_TIMEOUT=0.5)
    player, store = make_player(app.test_client()), session_store(app)
    store.update(store.sid_of(player.client), game=Game.new(seed=11))
    direction = Game.new(seed=11).legal_moves()[0]
    answers = []
    move = threading.Thread(target=lambda: answers.append(
        player.post("/move", direction=direction, seq="1")))
    holder = sqlite3.connect(app.extensions["games"].database.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write, holding the lock
    try:
        move.start()
        move.join(timeout=10)  # a few busy timeouts: the request must not wait for the lock
        assert not move.is_alive(), "the move waited on the lock instead of giving up"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        move.join()
    assert answers[0].status_code == 503 and "reach the game server" in answers[0].text
    database = app.extensions["games"].database.path
    assert f"store fault ({database}): OperationalError: database is locked" in caplog.text
    again = player.post("/move", direction=direction, seq="1")
    assert again.status_code == 200 and again.headers["X-Seq"] == "1"
    assert store.read(store.sid_of(player.client))["seq"] == 1
