"""Helpers for the scale-out tests: apps built as production builds them, players, the store."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from web_support import PageClient, StoreView, csrf_token, game_id
from web_support import build_app as build_web_app
from werkzeug.test import TestResponse

from engine import Game

STRONG_SECRET = "scale-tests-" + "0123456789abcdef" * 3
#: Limits no test reaches: test_scale_security checks the real ones; elsewhere they would only
#: get in the way of hammering one game. The fair queue's places too: with 2 a worker, one
#: address's requests take turns, so a test's tabs would never race inside the app.
UNLIMITED = {"MOVE_RATE_LIMIT": "100000/second", "SOLVER_RATE_LIMIT": "100000/second",
             "PAGE_RATE_LIMIT": "100000/second", "FAIR_QUEUE_SLOTS": 64}


def build_app(instance: Path, **config: object) -> Flask:
    """An app as production builds it, on a throw-away instance folder, no solver warm-up: the
    web tests' app with a strong secret and a longer REDIS_TIMEOUT (`config` overrides both)."""
    # A busy test machine can starve redis-server for longer than production's 0.25 s; an
    # outage still fails at once, since a stopped server refuses connections.
    production = {"SECRET_KEY": STRONG_SECRET, "REDIS_TIMEOUT": 2.0}
    return build_web_app(instance, **{**production, **config})


class Player(PageClient):
    """One browser tab: loads the page (or joins another tab's session), then posts intents
    with its CSRF token and the id of the game it shows, as the page does; each move names
    the seq it is given."""

    def __init__(self, client: FlaskClient, joining: Player | None = None) -> None:
        if joining is None:
            page = client.get("/").text
            token, game = csrf_token(page), game_id(page)
        else:
            client.set_cookie(client.application.config["SESSION_COOKIE_NAME"], joining.sid)
            token, game = joining.token, joining.game
        super().__init__(client, token, game)

    @property
    def sid(self) -> str:
        return self.client.get_cookie(self.client.application.config["SESSION_COOKIE_NAME"]).value

    def tab_on(self, app: Flask) -> Player:
        """Another browser tab of this player, possibly served by another app instance."""
        return Player(app.test_client(), joining=self)

    def move(self, direction: str, seq: int) -> TestResponse:
        return self.post("/move", direction=direction, seq=str(seq))


def stored(app: Flask, sid: str) -> dict | None:
    """The session's current game as plain values (position, seq, assisted, id), or None."""
    return StoreView(app).read(sid)


def store(app: Flask, sid: str, game: Game) -> None:
    """Put `game` in place of the session's current game (positions no route creates; its
    history starts there)."""
    StoreView(app).update(sid, game=game.to_dict())


def stored_game(app: Flask, sid: str) -> Game:
    """The session's current game, as a Game of the test's own."""
    return StoreView(app).game(sid)


def replay(start: dict, moves: list[str]) -> Game:
    """start (a saved game) with moves applied in order through the engine."""
    game = Game.from_dict(start)
    for move in moves:
        if move == "keep-playing":
            game.keep_playing()
        else:
            game.move(move)
    return game
