"""The production server for the HTTP benchmarks, and one player talking to it.

`production_server(**settings)` starts gunicorn as production does (gunicorn.conf.py, the app
built before the workers fork) on a free loopback port, with the embedded SQLite store in a
scratch directory and the given environment settings on top; it yields the port once gunicorn
accepts connections, and how long that took. `root` serves another checkout (an earlier
commit extracted with `git archive`) the same way. `HttpPlayer` loads the page once (session cookie, CSRF
token, the game's id) and then posts intents over one keep-alive connection, as the page's script
does: naming the game it shows and counting moves on from the server's X-Seq.
"""

from __future__ import annotations

import http.client
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from redis_server import free_port

ROOT = Path(__file__).resolve().parent.parent
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
GAME_ID = re.compile(r'data-game="([^"]+)"')
#: Budgets no benchmark reaches: one player asks far faster than a person would.
LIFTED_LIMITS = {"MOVE_RATE_LIMIT": "1000000/second", "SOLVER_RATE_LIMIT": "1000000/second",
                 "PAGE_RATE_LIMIT": "1000000/second"}


@contextmanager
def production_server(root: Path = ROOT, **settings: str) -> Iterator[tuple[int, float]]:
    """gunicorn serving the checkout at `root` on a free port with these settings; yields
    (port, seconds until it listened)."""
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
        environ.pop("REDIS_URL", None)
        log_path = Path(scratch) / "gunicorn.log"
        with log_path.open("w") as log:
            started = time.perf_counter()
            server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py"],
                                      cwd=root, env=environ, stdout=log, stderr=log)
            try:
                _wait_until_listening(port, server, log_path)
                yield port, time.perf_counter() - started
            finally:
                server.terminate()
                server.wait(timeout=30)


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


class HttpPlayer:
    """One browser: a session cookie, a CSRF token, the game it shows, a keep-alive connection;
    `address`, if given, is the client address a proxy in front would report (X-Forwarded-For,
    which the server reads with PROXY_HOPS=1)."""

    def __init__(self, port: int, address: str | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.address = address
        self.cookies: dict[str, str] = {}
        self.game, self.seq, self.status = "", 0, "playing"  # status: the game's, as answers say
        self.page = self.request("GET", "/")
        self.token = CSRF_META.search(self.page).group(1)
        self.game = GAME_ID.search(self.page).group(1)

    def exchange(self, method: str, path: str, form: dict[str, str] | None = None
                 ) -> tuple[int, str]:
        """The answer's status and text, whatever the status."""
        headers = {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items())}
        if self.address:
            headers["X-Forwarded-For"] = self.address
        body = None
        if method == "POST":
            body = urlencode({"game": self.game, **(form or {})})
            headers |= {"X-CSRFToken": self.token,
                        "Content-Type": "application/x-www-form-urlencoded"}
        answer = self._send(method, path, body, headers)
        text = answer.read().decode()
        for cookie in answer.headers.get_all("Set-Cookie") or ():
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name] = value
        if answer.status == 200:
            self.game = answer.headers.get("X-Game", self.game)
            self.seq = int(answer.headers.get("X-Seq", self.seq))
            self.status = answer.headers.get("X-Status", self.status)
        return answer.status, text

    def _send(self, method: str, path: str, body: str | None, headers: dict[str, str]
              ) -> http.client.HTTPResponse:
        """Send the request, again on a new connection if the server closed the kept-alive one
        while the player was idle (gunicorn keeps an idle connection for 2 s)."""
        try:
            self.connection.request(method, path, body=body, headers=headers)
            return self.connection.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            self.connection.close()
            self.connection.request(method, path, body=body, headers=headers)
            return self.connection.getresponse()

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> str:
        """The answer's text; RuntimeError on any status but 200."""
        status, text = self.exchange(method, path, form)
        if status != 200:
            raise RuntimeError(f"{method} {path} answered {status}")
        return text

    def post(self, path: str, **form: str) -> str:
        return self.request("POST", path, form)

    def move(self, direction: str) -> str:
        """Play the next move."""
        return self.post("/move", direction=direction, seq=str(self.seq + 1))
