"""Production configuration: from the environment, and a clear refusal when it is unsafe."""

from __future__ import annotations

import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from harness import yardstick
from tests.scale.scale_support import Tab, production_app
from webapp.config import ConfigError
from webapp.production import check_secret, create_production_app, production_settings

ROOT = Path(__file__).resolve().parents[2]
GOOD_SECRET = secrets.token_hex(32)


@pytest.mark.parametrize("secret, complaint", [
    (None, "not set"), ("", "not set"), ("change-me", "too weak"), ("a" * 64, "too weak"),
])
def test_a_missing_or_weak_secret_is_refused(secret, complaint):
    with pytest.raises(ConfigError, match=complaint):
        check_secret(secret)


def test_a_generated_secret_is_accepted():
    assert check_secret(GOOD_SECRET) == GOOD_SECRET


def test_production_defaults_to_secure_cookies_and_the_embedded_database():
    settings = production_settings({"SECRET_KEY": GOOD_SECRET})
    assert settings["SESSION_COOKIE_SECURE"] is True
    assert settings["SESSION_BACKEND"] == "sqlite"
    plain_http = production_settings({"SECRET_KEY": GOOD_SECRET, "SESSION_COOKIE_SECURE": "0"})
    assert plain_http["SESSION_COOKIE_SECURE"] is False


def test_redis_url_selects_the_redis_store():
    settings = production_settings({"SECRET_KEY": GOOD_SECRET, "REDIS_URL": "redis://db:6379/0"})
    assert settings["SESSION_BACKEND"] == "redis"
    assert settings["REDIS_URL"] == "redis://db:6379/0"


def test_sentinels_and_cluster_nodes_select_the_redis_store_and_read_as_addresses():
    sentinels = production_settings({"SECRET_KEY": GOOD_SECRET, "REDIS_SENTINEL_SERVICE": "games",
                                     "REDIS_SENTINELS": "s1:26379, [::1]:26380"})
    assert sentinels["SESSION_BACKEND"] == "redis"
    assert sentinels["REDIS_SENTINELS"] == [("s1", 26379), ("::1", 26380)]
    cluster = production_settings({"SECRET_KEY": GOOD_SECRET, "REDIS_CLUSTER_NODES": "n1:7000"})
    assert cluster["SESSION_BACKEND"] == "redis"
    assert cluster["REDIS_CLUSTER_NODES"] == [("n1", 7000)]


@pytest.mark.parametrize("environ, complaint", [
    ({"SESSION_BACKEND": "redis"}, "needs one of REDIS_URL"),
    ({"REDIS_URL": "redis+sentinel://db:26379/games"}, "not redis\\+sentinel://"),
    ({"REDIS_URL": "sentinel://db:26379"}, "for Sentinel set REDIS_SENTINELS"),
    ({"REDIS_URL": "redis://db1:6379,db2:6379/0"}, "names one server, not several"),
    ({"REDIS_URL": "redis://db:port/0"}, "REDIS_URL cannot be read"),
    ({"REDIS_URL": "redis://db:6379/0", "REDIS_SENTINELS": "db:26379"},
     "not REDIS_URL and REDIS_SENTINELS"),
    ({"REDIS_SENTINELS": "db:26379"}, "needs REDIS_SENTINEL_SERVICE"),
    ({"REDIS_SENTINELS": "db", "REDIS_SENTINEL_SERVICE": "games"}, "must be host:port"),
    ({"REDIS_CLUSTER_NODES": "db:0"}, "REDIS_CLUSTER_NODES must be host:port"),
    ({"REDIS_URL": "redis://db:6379/0", "REDIS_WAIT_REPLICAS": "one"},
     "REDIS_WAIT_REPLICAS must be a whole number"),
    ({"REDIS_URL": "redis://db:6379/0", "REDIS_WAIT_TIMEOUT": "0.5"},
     "REDIS_WAIT_TIMEOUT must be shorter than REDIS_TIMEOUT"),
    ({"SESSION_BACKEND": "memcached"}, "must be one of"),
    ({"REDIS_TIMEOUT": "soon"}, "must be a number"),
    ({"SQLITE_BUSY_TIMEOUT": "0"}, "must be positive"),
    ({"SESSION_COOKIE_SECURE": "maybe"}, "SESSION_COOKIE_SECURE must be on or off"),
    ({"PROXY_HOPS": "one"}, "PROXY_HOPS must be a whole number"),
    ({"PROXY_HOPS": "-1"}, "PROXY_HOPS must be a whole number"),
])
def test_unusable_settings_are_refused(environ, complaint):
    with pytest.raises(ConfigError, match=complaint):
        production_settings({"SECRET_KEY": GOOD_SECRET, **environ})


def test_the_production_app_has_no_benchmark_route(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", GOOD_SECRET)
    monkeypatch.setenv("SQLITE_PATH", str(tmp_path / "games.sqlite3"))
    monkeypatch.setenv("SOLVER_WARM_UP", "0")
    app = create_production_app()
    assert all(not rule.rule.startswith("/bench") for rule in app.url_map.iter_rules())
    assert app.config["SESSION_COOKIE_SECURE"] is True


def gunicorn_refusal(tmp_path, **environ: str) -> str:
    """What gunicorn says on stderr when it refuses to start with these settings."""
    environ = {"PATH": "/usr/bin:/bin", "BIND": "127.0.0.1:0", "SOLVER_WARM_UP": "0",
               "HOME": str(tmp_path), **environ}
    started = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60,
    )
    assert started.returncode != 0
    return started.stderr


def test_gunicorn_refuses_to_start_with_a_weak_secret(tmp_path):
    assert "SECRET_KEY is too weak" in gunicorn_refusal(tmp_path, SECRET_KEY="secret")


@pytest.mark.parametrize("environ, complaint", [
    ({"REDIS_URL": "redis+sentinel://db:26379/games"}, "REDIS_URL must be redis://host:port/db"),
    ({"REDIS_URL": "redis://db1:6379,db2:6379/0"}, "REDIS_URL names one server"),
])
def test_gunicorn_refuses_a_redis_url_it_cannot_use_in_one_line(tmp_path, environ, complaint):
    """Not redis-py's ValueError traceback: the start-up's one line naming the cause."""
    said = gunicorn_refusal(tmp_path, SECRET_KEY=GOOD_SECRET, **environ)
    assert f"Error: {complaint}" in said and "Traceback" not in said


def test_the_benchmark_route_exists_only_in_the_benchmarks_app(tmp_path):
    plain = Tab(production_app(tmp_path / "plain").test_client())
    assert plain.post("/bench/session").status_code == 404
    app = production_app(tmp_path / "bench")
    app.register_blueprint(yardstick.bp)
    bench = Tab(app.test_client())
    assert bench.post("/bench/session").status_code == 200
