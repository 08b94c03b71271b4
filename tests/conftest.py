"""Fixtures shared by the web tests: an app per test on its own instance folder, a client,
a player that posts intents the way the page's script does, direct access to the store
(to set up games no route creates, and to look at what it keeps), a real redis-server and a
real Redis Cluster of three primaries.
The player is harness.player's; build_app and StoreView are tests.web_support's."""

import itertools
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from engine import Game, rng
from harness.player import Player
from harness.redis_server import Cluster, RedisServer
from tests.web_support import StoreView, build_app, stop_reviews
from webapp import PROJECT_ROOT
from webapp.store.game_record import GameRecord

# No time limit on a generated example: how long one takes depends on the machine's load, and
# the suite asserts behaviour, not speed (speed is measured in bench/). The quick tier
# (`make test-quick`, --hypothesis-profile=quick) draws the same examples every run.
settings.register_profile("suite", deadline=None)
settings.register_profile("quick", deadline=None, derandomize=True)
settings.load_profile("suite")

#: The instance folder `make run` serves from: no test may write there.
PROJECT_INSTANCE = PROJECT_ROOT / "instance"
#: Room between two tests' seed sequences (a test starts far fewer games than this).
SEEDS_PER_TEST = 1 << 16
#: What a marker says a test needs, and the fixtures that bring it: the quick tier
#: (`make test-quick`) leaves out the tests carrying these markers, and "slow".
NEEDS = {"browser": {"page", "context", "browser"}, "redis": {"redis_server", "redis_cluster"}}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse the run if a test reaches a browser or a redis-server through its fixtures without
    the marker that keeps it out of the quick tier."""
    unmarked = [f"{item.nodeid} needs the {marker} marker" for item in items
                for marker, fixtures in NEEDS.items()
                if fixtures & set(getattr(item, "fixturenames", ()))
                and item.get_closest_marker(marker) is None]
    if unmarked:
        raise pytest.UsageError("\n".join(unmarked))


@pytest.fixture(autouse=True)
def redis_only_where_marked(request: pytest.FixtureRequest,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A test without the redis marker cannot start a redis-server of its own (one it reaches
    through `redis_url` is refused there)."""
    if request.node.get_closest_marker("redis") is None:
        def refuse(server: RedisServer, *args: object) -> None:
            raise AssertionError(f"{request.node.nodeid} starts a redis-server: mark it redis")

        monkeypatch.setattr(RedisServer, "start", refuse)


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

    def start_seeded(cls: type[GameRecord], game: Game | None = None, *,
                     opening: int | None = None) -> GameRecord:
        return start(cls, game or Game.new(next(seeds), opening=opening))

    monkeypatch.setattr(rng, "new_seed", refuse_unseeded)
    monkeypatch.setattr(GameRecord, "start", classmethod(start_seeded))
    yield
    if unseeded:
        pytest.fail("a game was started without a seed (the error above shows where)")


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
def make_web_app() -> Iterator[Callable[..., Flask]]:
    """build_app, for tests that need their own app or a second one on the same folder; each
    app's review thread, if it started one, is stopped after the test (see `app`)."""
    built: list[Flask] = []

    def make(instance_path: Path, **config: object) -> Flask:
        built.append(build_app(instance_path, **config))
        return built[-1]

    yield make
    for app in built:
        stop_reviews(app)


@pytest.fixture
def session_store():
    """The StoreView class, for tests that build their own app."""
    return StoreView


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    """An app on the test's own instance folder. A review thread it started is stopped after
    the test: left running, it would read a store the test has done with (and log, once Redis
    is gone), and a later test's fork could catch it inside SQLite."""
    app = build_app(tmp_path / "instance")
    yield app
    stop_reviews(app)


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
def redis_url(request: pytest.FixtureRequest, redis_server: RedisServer) -> str:
    """The shared server's URL, emptied before the test (which must carry the redis marker)."""
    assert request.node.get_closest_marker("redis"), f"{request.node.nodeid}: mark it redis"
    redis.Redis.from_url(redis_server.url).flushdb()
    return redis_server.url


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[Cluster]:
    """One real Redis Cluster (three primaries) for the whole run (per test worker)."""
    with Cluster() as cluster:
        yield cluster


@pytest.fixture
def cluster_nodes(request: pytest.FixtureRequest, redis_cluster: Cluster) -> list[tuple[str, int]]:
    """The shared cluster's nodes (REDIS_CLUSTER_NODES), emptied before the test (which must
    carry the redis marker)."""
    assert request.node.get_closest_marker("redis"), f"{request.node.nodeid}: mark it redis"
    redis_cluster.flush()
    return redis_cluster.nodes
