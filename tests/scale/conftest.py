"""Fixtures for the scale-out tests: apps on each store (the real Redis and Redis Cluster are
tests/conftest.py's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from tests.scale.scale_support import UNLIMITED, production_app


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Flask:
    return production_app(tmp_path / "instance", SESSION_BACKEND="sqlite", **UNLIMITED)


@pytest.fixture
def redis_app(tmp_path: Path, redis_url: str) -> Flask:
    return production_app(tmp_path / "instance", SESSION_BACKEND="redis", REDIS_URL=redis_url,
                     **UNLIMITED)


@pytest.fixture
def cluster_app(tmp_path: Path, cluster_nodes: list[tuple[str, int]]) -> Flask:
    return production_app(tmp_path / "instance", SESSION_BACKEND="redis",
                          REDIS_CLUSTER_NODES=cluster_nodes, **UNLIMITED)


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis),
                        pytest.param("cluster", marks=pytest.mark.redis)])
def any_app(request: pytest.FixtureRequest) -> Flask:
    """The app on each store in turn: SQLite, one Redis server, a Redis Cluster."""
    return request.getfixturevalue(f"{request.param}_app")
