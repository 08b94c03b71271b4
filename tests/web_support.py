"""How the web tests reach an app: built on a throw-away instance folder, and its store looked
into directly. They speak to it as the page's script does through `harness.player.Player`."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine import Game
from webapp import create_app
from webapp.review import WORKER
from webapp.store.game_record import GameRecord
from webapp.store.redis_client import Client, redis_client

#: The stores a store test runs on, in turn: SQLite, one Redis server, a Redis Cluster.
STORES = ["sqlite", pytest.param("redis", marks=pytest.mark.redis),
          pytest.param("cluster", marks=pytest.mark.redis)]


def redis_settings(request: pytest.FixtureRequest, shape: str) -> dict[str, object]:
    """An app's settings for the tests' real Redis, one server (`shape` "redis") or the
    cluster ("cluster"), emptied for the test."""
    if shape == "cluster":
        return {"SESSION_BACKEND": "redis",
                "REDIS_CLUSTER_NODES": request.getfixturevalue("cluster_nodes")}
    return {"SESSION_BACKEND": "redis", "REDIS_URL": request.getfixturevalue("redis_url")}


def redis_of(request: pytest.FixtureRequest, shape: str) -> Client:
    """A client of the tests' real Redis of that shape (see `redis_settings`)."""
    return redis_client({**redis_settings(request, shape), "REDIS_TIMEOUT": 2.0})


def build_app(instance_path: Path, **config: object) -> Flask:
    """The app as the tests run it: a throw-away instance folder, no solver warm-up; `config`
    adds to or overrides those settings."""
    settings = {"INSTANCE_PATH": str(instance_path), "SECRET_KEY": "test", "SOLVER_WARM_UP": False}
    return create_app({**settings, **config})


def stop_reviews(app: Flask) -> None:
    """Stop the app's review thread, if it started one, and wait for it."""
    app.extensions[WORKER].stop(timeout=60)


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
        """The current game as values: its position (`Game.position`), seq, assisted, id (None
        when there is none)."""
        record = self.record(sid)
        if record is None:
            return None
        return {"game": record.game.position, "seq": record.seq, "assisted": record.assisted,
                "id": record.id}

    def game(self, sid: str) -> Game:
        """The session's current game, as read from the store: a Game of the test's own
        (changing it changes nothing stored)."""
        return self.record(sid).game

    def game_of(self, client: FlaskClient) -> Game:
        """The current game of the session a test client holds (see `game`)."""
        return self.game(self.sid_of(client))

    def update(self, sid: str, game: Game | None = None, **changes: object) -> None:
        """Change the session's current game in place: another game (with its history), and
        any other record fields."""
        record = self.record(sid)
        if game is not None:
            record.game = game
        for name, value in changes.items():
            setattr(record, name, value)
        assert self.games.replace(record)

    def sid_of(self, client: FlaskClient) -> str:
        """The session id a test client holds."""
        return client.get_cookie(self.app.config["SESSION_COOKIE_NAME"]).value
