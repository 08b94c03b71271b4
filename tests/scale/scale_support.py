"""Helpers for the scale-out tests: apps built as production builds them, players, the store."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from engine import Game
from webapp import create_app

CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
GAME_ID = re.compile(r'data-game="([^"]+)"')
STRONG_SECRET = "scale-tests-" + "0123456789abcdef" * 3
#: Limits no test reaches: test_scale_security checks the real ones; elsewhere they would only
#: get in the way of hammering one game. The fair queue's places too: with 2 a worker, one
#: address's requests take turns, so a test's tabs would never race inside the app.
UNLIMITED = {"MOVE_RATE_LIMIT": "100000/second", "SOLVER_RATE_LIMIT": "100000/second",
             "PAGE_RATE_LIMIT": "100000/second", "FAIR_QUEUE_SLOTS": 64}


def build_app(instance: Path, **config: object) -> Flask:
    """An app as production builds it, on a throw-away instance folder, no solver warm-up."""
    settings = {
        "INSTANCE_PATH": str(instance),
        "SECRET_KEY": STRONG_SECRET,
        "SOLVER_WARM_UP": False,
        # A busy test machine can starve redis-server for longer than production's 0.25 s; an
        # outage still fails at once, since a stopped server refuses connections.
        "REDIS_TIMEOUT": 2.0,
        **config,
    }
    return create_app(settings)


class Player:
    """One browser tab: loads the page (or joins another tab's session), then posts intents
    with its CSRF token and the id of the game it shows, as the page does."""

    def __init__(self, client: FlaskClient, joining: Player | None = None) -> None:
        self.client = client
        if joining is None:
            page = client.get("/")
            self.token = CSRF_META.search(page.text).group(1)
            self.game = GAME_ID.search(page.text).group(1)
        else:
            client.set_cookie(client.application.config["SESSION_COOKIE_NAME"], joining.sid)
            self.token, self.game = joining.token, joining.game

    @property
    def sid(self) -> str:
        return self.client.get_cookie(self.client.application.config["SESSION_COOKIE_NAME"]).value

    def tab_on(self, app: Flask) -> Player:
        """Another browser tab of this player, possibly served by another app instance."""
        return Player(app.test_client(), joining=self)

    def post(self, path: str, **form: str) -> TestResponse:
        form.setdefault("game", self.game)
        answer = self.client.post(path, data=form, headers={"X-CSRFToken": self.token})
        self.game = answer.headers.get("X-Game", self.game)
        return answer

    def move(self, direction: str, seq: int) -> TestResponse:
        return self.post("/move", direction=direction, seq=str(seq))


def stored(app: Flask, sid: str) -> dict | None:
    """The session's current game as plain values (position, seq, assisted, id), or None."""
    interface = app.session_interface
    data = interface._retrieve_session_data(interface._get_store_id(sid)) or {}
    record = app.extensions["games"].get(data["game"]) if "game" in data else None
    if record is None:
        return None
    return {"game": record.game.to_dict(), "seq": record.seq, "assisted": record.assisted,
            "id": record.id}


def store(app: Flask, sid: str, game: Game) -> None:
    """Put `game` in place of the session's current game (positions no route creates)."""
    interface = app.session_interface
    data = interface._retrieve_session_data(interface._get_store_id(sid))
    games = app.extensions["games"]
    record = games.get(data["game"])
    record.game = game
    assert games.replace(record)


def stored_game(app: Flask, sid: str) -> Game:
    return Game.from_dict(stored(app, sid)["game"])


def replay(start: dict, moves: list[str]) -> Game:
    """start (a saved game) with moves applied in order through the engine."""
    game = Game.from_dict(start)
    for move in moves:
        if move == "keep-playing":
            game.keep_playing()
        else:
            game.move(move)
    return game
