"""Fixtures shared by the web tests: an app per test on its own instance folder, a client,
a player that posts intents the way the page's script does, direct access to the store
(to set up games no route creates, and to look at what it keeps), and a real redis-server."""

import itertools
import re
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from redis_server import RedisServer

from engine import Game, rng
from webapp import PROJECT_ROOT, create_app
from webapp.store.records import GameRecord

# No time limit on a generated example: how long one takes depends on the machine's load, and
# the suite asserts behaviour, not speed (speed is measured in bench/).
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

#: The instance folder `make run` serves from: no test may write there.
PROJECT_INSTANCE = PROJECT_ROOT / "instance"
#: Room between two tests' seed sequences (a test starts far fewer games than this).
SEEDS_PER_TEST = 1 << 16

CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
GAME_ID = re.compile(r'data-game="([^"]+)"')


def instance_files() -> dict[Path, tuple[int, int]]:
    """Each file in the project's instance folder, with its modification time and size."""
    return {path: (path.stat().st_mtime_ns, path.stat().st_size)
            for path in PROJECT_INSTANCE.rglob("*") if path.is_file()}


@pytest.fixture(scope="session", autouse=True)
def project_instance_untouched() -> Iterator[None]:
    """Fails the run if a test wrote into the project's own instance folder (its database is
    the one `make run` serves): every app a test builds gets a folder of its own."""
    before = instance_files()
    yield
    written = sorted(str(path) for path, stamp in instance_files().items()
                     if before.get(path) != stamp)
    assert not written, f"tests wrote into the project's instance folder: {written}"


@pytest.fixture(autouse=True)
def seeded_games(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every game a test plays starts from a seed, so every run plays the same games.

    A game the test starts itself without a seed (`Game.new()`, `Game.from_rows(rows)`) fails
    the test. A game the app starts (a first page load, a new game: `GameRecord.start()`) takes
    the next seed of a sequence fixed by the test's id, as the test has no say in it."""
    unseeded: list[str] = []

    def refuse_unseeded() -> int:
        unseeded.append(request.node.nodeid)
        raise AssertionError("a test started a game without a seed: give Game.new or "
                             "Game.from_rows a seed")

    seeds = itertools.count(zlib.crc32(request.node.nodeid.encode()) * SEEDS_PER_TEST)
    start = GameRecord.start.__func__

    def start_seeded(cls: type[GameRecord], game: Game | None = None) -> GameRecord:
        return start(cls, game or Game.new(next(seeds)))

    monkeypatch.setattr(rng, "new_seed", refuse_unseeded)
    monkeypatch.setattr(GameRecord, "start", classmethod(start_seeded))
    yield
    if unseeded:
        pytest.fail("a game was started without a seed (the error above shows where)")


def build_app(instance_path: Path, **config) -> Flask:
    """The app as the tests run it: a throwaway instance folder, no solver warm-up."""
    settings = {"INSTANCE_PATH": str(instance_path), "SECRET_KEY": "test", "SOLVER_WARM_UP": False}
    return create_app({**settings, **config})


class Player:
    """A client that loads the page once (the game's, or another such as ``/daily``) and posts intents the way the page's script does:
    with its CSRF token, naming the game it shows, counting moves from the server's X-Seq."""

    def __init__(self, client: FlaskClient, page: str = "/") -> None:
        self.client = client
        self.page = client.get(page)
        self.token = CSRF_META.search(self.page.text).group(1)
        self.game = GAME_ID.search(self.page.text).group(1)
        self.seq = 0

    def post(self, path: str, **form):
        form.setdefault("game", self.game)
        answer = self.client.post(path, data=form, headers={"X-CSRFToken": self.token})
        self.game = answer.headers.get("X-Game", self.game)
        self.seq = int(answer.headers.get("X-Seq", self.seq))
        return answer

    def move(self, direction: str):
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
        """The session's current game."""
        data = self.session(sid) or {}
        return self.games.get(data["game"]) if "game" in data else None

    def read(self, sid: str) -> dict:
        """The current game as plain values: its position, seq, assisted, id."""
        record = self.record(sid)
        return {"game": record.game.to_dict(), "seq": record.seq, "assisted": record.assisted,
                "id": record.id}

    def update(self, sid: str, game: dict | None = None, **changes) -> None:
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


class Clock:
    """A clock a test moves on (an app's ``CLOCK``). It starts at the real time, so the
    store's own expiry, which reads the real one, keeps everything the test makes."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_web_app():
    """build_app, for tests that need their own app or a second one on the same folder."""
    return build_app


@pytest.fixture
def session_store():
    """The StoreView class, for tests that build their own app."""
    return StoreView


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
def store(app) -> StoreView:
    return StoreView(app)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One real redis-server for the whole run (per test worker)."""
    with RedisServer() as server:
        yield server


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The shared server's URL, emptied before the test."""
    redis.Redis.from_url(redis_server.url).flushdb()
    return redis_server.url
