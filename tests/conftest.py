"""Fixtures shared by the web tests: an app per test on its own instance folder, a client,
a player that posts intents the way the page's script does, and direct access to the session
store (to set up games no route creates)."""

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webapp import create_app

CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


def build_app(instance_path: Path, **config) -> Flask:
    """The app as the tests run it: a throwaway instance folder, no solver warm-up."""
    settings = {"INSTANCE_PATH": str(instance_path), "SECRET_KEY": "test", "SOLVER_WARM_UP": False}
    return create_app({**settings, **config})


class Player:
    """A client that loads the page once and posts intents the way the page's script does."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.page = client.get("/")
        self.token = CSRF_META.search(self.page.text).group(1)
        self.seq = 0

    def post(self, path: str, **form):
        return self.client.post(path, data=form, headers={"X-CSRFToken": self.token})

    def move(self, direction: str):
        self.seq += 1
        return self.post("/move", direction=direction, seq=str(self.seq))


class SessionStore:
    """Direct access to an app's session store."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def _key(self, sid: str) -> str:
        return self.app.config.get("SESSION_KEY_PREFIX", "session:") + sid

    def read(self, sid: str) -> dict:
        return self.app.session_interface.cache.get(self._key(sid))

    def write(self, sid: str, data: dict) -> None:
        self.app.session_interface.cache.set(self._key(sid), data)

    def update(self, sid: str, **changes) -> None:
        self.write(sid, {**self.read(sid), **changes})

    def sid_of(self, client: FlaskClient) -> str:
        """The session id a test client holds."""
        return client.get_cookie(self.app.config["SESSION_COOKIE_NAME"]).value


@pytest.fixture
def make_web_app():
    """build_app, for tests that need their own app or a second one on the same folder."""
    return build_app


@pytest.fixture
def session_store():
    """The SessionStore class, for tests that build their own app."""
    return SessionStore


@pytest.fixture
def app(tmp_path) -> Flask:
    return build_app(tmp_path / "instance")


@pytest.fixture
def client(app) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def player(client) -> Player:
    return Player(client)


@pytest.fixture
def make_player():
    """Player, for a second player or one on another app."""
    return Player


@pytest.fixture
def store(app) -> SessionStore:
    return SessionStore(app)
