"""The production server, live on a loopback port, for the benchmarks and the tests that need a
real one.

`production_server(**settings)` starts gunicorn as production does (gunicorn.conf.py, the app
built before the workers fork) on a free port, with the embedded SQLite store in a scratch folder
and the given environment settings on top, and yields a `LiveServer` once it accepts connections.
`root` serves another checkout (an earlier commit unpacked by `harness.checkout.unpacked`) the
same way; `app` serves another WSGI application than gunicorn.conf.py's (the benchmarks' server
with its yardstick route: `YARDSTICK_APP`).
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from harness import ROOT
from harness.ports import free_port

#: Budgets no benchmark reaches: one player asks far faster than a person would.
LIFTED_LIMITS = {"MOVE_RATE_LIMIT": "1000000/second", "SOLVER_RATE_LIMIT": "1000000/second",
                 "PAGE_RATE_LIMIT": "1000000/second"}
#: The production app with the benchmarks' yardstick route (harness/yardstick.py).
YARDSTICK_APP = "harness.yardstick:bench_app()"


@dataclass
class LiveServer:
    """A running gunicorn: its port, its master process, how long it took to listen, and the
    SQLite file it keeps its games in (when it does)."""

    port: int
    process: subprocess.Popen
    startup: float
    sqlite_path: Path


@contextmanager
def production_server(root: Path = ROOT, app: str | None = None, **settings: str
                      ) -> Iterator[LiveServer]:
    """gunicorn serving the checkout at `root` on a free port with these settings (environment
    variables: one worker and lifted budgets unless they say otherwise)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        environ = {
            **os.environ,
            "BIND": f"127.0.0.1:{port}",
            "SECRET_KEY": secrets.token_hex(32),
            "SESSION_BACKEND": "sqlite",
            "SQLITE_PATH": str(Path(scratch) / "games.sqlite3"),
            "SESSION_COOKIE_SECURE": "0",
            "WEB_CONCURRENCY": "1",
            **LIFTED_LIMITS,
            **settings,
        }
        for name in [name for name in environ if name.startswith("REDIS_")]:
            if name not in settings:  # only the Redis this server is given
                del environ[name]
        log_path = Path(scratch) / "gunicorn.log"
        command = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", *filter(None, [app])]
        with log_path.open("w") as log:
            started = time.perf_counter()
            process = subprocess.Popen(command, cwd=root, env=environ, stdout=log, stderr=log)
            try:
                _wait_until_listening(port, process, log_path)
                yield LiveServer(port, process, time.perf_counter() - started,
                                 Path(environ["SQLITE_PATH"]))
            finally:
                process.terminate()
                process.wait(timeout=30)


def _wait_until_listening(port: int, server: subprocess.Popen, log_path: Path,
                          timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.01)
    raise RuntimeError(f"gunicorn did not start:\n{log_path.read_text()}")
