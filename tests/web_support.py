"""How the web tests reach an app: built on a throw-away instance folder, spoken to as the
page's script speaks (the CSRF token and game id read from the page, intents posted with that
token naming that game, the game followed from X-Game), and its store looked into directly."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from engine import Game
from webapp import create_app
from webapp.store.records import GameRecord

CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
GAME_ID = re.compile(r'data-game="([^"]+)"')


def csrf_token(html: str) -> str:
    """The CSRF token a page carries in its ``<meta name="csrf-token">``."""
    return CSRF_META.search(html).group(1)


def game_id(html: str) -> str:
    """The id of the game a page shows (its ``data-game``)."""
    return GAME_ID.search(html).group(1)


def build_app(instance_path: Path, **config: object) -> Flask:
    """The app as the tests run it: a throw-away instance folder, no solver warm-up; `config`
    adds to or overrides those settings."""
    settings = {"INSTANCE_PATH": str(instance_path), "SECRET_KEY": "test", "SOLVER_WARM_UP": False}
    return create_app({**settings, **config})


class PageClient:
    """A test client holding what the page's script holds (its CSRF token, the id of the game
    it shows) and posting intents as the script does."""

    def __init__(self, client: FlaskClient, token: str, game: str) -> None:
        self.client, self.token, self.game = client, token, game

    def post(self, path: str, **form: str | list[str]) -> TestResponse:
        """Post an intent with the token, naming the game shown unless `form` names one; the
        game the answer's X-Game names is the one shown from then on."""
        form.setdefault("game", self.game)
        answer = self.client.post(path, data=form, headers={"X-CSRFToken": self.token})
        self.game = answer.headers.get("X-Game", self.game)
        return answer


class Player(PageClient):
    """A client that loads the page once (the game's, or another such as ``/daily``) and posts
    intents the way the page's script does, counting moves from the server's X-Seq."""

    def __init__(self, client: FlaskClient, page: str = "/") -> None:
        self.page = client.get(page)
        super().__init__(client, csrf_token(self.page.text), game_id(self.page.text))
        self.seq = 0

    def post(self, path: str, **form: str | list[str]) -> TestResponse:
        answer = super().post(path, **form)
        self.seq = int(answer.headers.get("X-Seq", self.seq))
        return answer

    def move(self, direction: str) -> TestResponse:
        """The next move, numbered after the last X-Seq the server sent."""
        return self.post("/move", direction=direction, seq=str(self.seq + 1))


class StoreView:
    """Direct access to an app's store, by session id."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.games = app.extensions["games"]

    def session(self, sid: str) -> dict | None:
        """The session as stored (None when there is none)."""
        interface = self.app.session_interface
        return interface._retrieve_session_data(interface._get_store_id(sid))

    def record(self, sid: str) -> GameRecord | None:
        """The session's current game (None when there is none)."""
        data = self.session(sid) or {}
        return self.games.get(data["game"]) if "game" in data else None

    def read(self, sid: str) -> dict | None:
        """The current game as plain values: its position, seq, assisted, id (None when there
        is none)."""
        record = self.record(sid)
        if record is None:
            return None
        return {"game": record.game.to_dict(), "seq": record.seq, "assisted": record.assisted,
                "id": record.id}

    def game(self, sid: str) -> Game:
        """The session's current game, as a Game of the test's own (changing it changes
        nothing stored)."""
        return Game.from_dict(self.read(sid)["game"])

    def game_of(self, client: FlaskClient) -> Game:
        """The current game of the session a test client holds (see `game`)."""
        return self.game(self.sid_of(client))

    def update(self, sid: str, game: dict | None = None, **changes: object) -> None:
        """Change the session's current game in place: a new position (its history starts
        there), and any other record fields."""
        record = self.record(sid)
        if game is not None:
            record.game = Game.from_dict(game)
        for name, value in changes.items():
            setattr(record, name, value)
        assert self.games.replace(record)

    def sid_of(self, client: FlaskClient) -> str:
        """The session id a test client holds."""
        return client.get_cookie(self.app.config["SESSION_COOKIE_NAME"]).value
