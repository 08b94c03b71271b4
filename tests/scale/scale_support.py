"""Helpers for the scale-out tests: apps built as production builds them, browser tabs, the
store."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from engine import Game
from harness.player import Page, Player
from tests.web_support import StoreView, build_app

STRONG_SECRET = "scale-tests-" + "0123456789abcdef" * 3
#: What production sets beyond the web tests' app: a strong secret, and a longer REDIS_TIMEOUT
#: (a busy test machine can starve redis-server for longer than production's 0.25 s; an outage
#: still fails at once, since a stopped server refuses connections).
PRODUCTION = {"SECRET_KEY": STRONG_SECRET, "REDIS_TIMEOUT": 2.0}
#: Limits no test reaches: test_scale_security checks the real ones; elsewhere they would only
#: get in the way of hammering one game. The fair queue's places too: with 2 a worker, one
#: address's requests take turns, so a test's tabs would never race inside the app.
UNLIMITED = {"MOVE_RATE_LIMIT": "100000/second", "SOLVER_RATE_LIMIT": "100000/second",
             "PAGE_RATE_LIMIT": "100000/second", "FAIR_QUEUE_SLOTS": 64}


def production_app(instance: Path, **config: object) -> Flask:
    """The web tests' app with PRODUCTION's settings (`config` overrides them)."""
    return build_app(instance, **{**PRODUCTION, **config})


class Tab(Player):
    """One browser tab: loads the page, or joins another tab's session (its cookie, token and
    game) without loading it."""

    def __init__(self, client: FlaskClient, joining: Tab | None = None) -> None:
        if joining is None:
            super().__init__(client)
            return
        client.set_cookie(client.application.config["SESSION_COOKIE_NAME"], joining.sid)
        self.client = client
        Page.__init__(self, joining.token, joining.game)

    @property
    def sid(self) -> str:
        return self.client.get_cookie(self.client.application.config["SESSION_COOKIE_NAME"]).value

    def tab_on(self, app: Flask) -> Tab:
        """Another browser tab of this player, possibly served by another app instance."""
        return Tab(app.test_client(), joining=self)


def stored(app: Flask, sid: str) -> dict | None:
    """The session's current game as plain values (position, seq, assisted, id), or None."""
    return StoreView(app).read(sid)


def stored_game(app: Flask, sid: str) -> Game:
    """The session's current game, as read from the store."""
    return StoreView(app).game(sid)


def store(app: Flask, sid: str, game: Game) -> None:
    """Put `game` in place of the session's current game (positions no route creates)."""
    StoreView(app).update(sid, game=game)


def replay(start: Game, moves: list[str]) -> Game:
    """A copy of `start` with moves applied in order through the engine."""
    game = Game.from_saved(start.to_saved())
    for move in moves:
        if move == "keep-playing":
            game.keep_playing()
        else:
            game.move(move)
    return game
