"""Fixtures for the scale-out tests: apps on either store, and a real Redis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from redis_server import RedisServer
from scale_support import UNLIMITED, build_app


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


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Flask:
    return build_app(tmp_path / "instance", SESSION_BACKEND="sqlite", **UNLIMITED)


@pytest.fixture
def redis_app(tmp_path: Path, redis_url: str) -> Flask:
    return build_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=redis_url,
                     **UNLIMITED)


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def any_app(request: pytest.FixtureRequest) -> Flask:
    """The app on each store in turn."""
    return request.getfixturevalue(f"{request.param}_app")
