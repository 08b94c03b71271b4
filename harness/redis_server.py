"""A real, throw-away redis-server on a free loopback port, for tests and benchmarks.

`RedisServer` takes any redis-server setting as a keyword (``appendonly="yes"``, or a setting of
several words as a tuple: ``replicaof=("127.0.0.1", "6380")``), so replicas, Sentinels
(``--sentinel``, through `mode`) and cluster nodes (``cluster_enabled="yes"``) are the same class
started with other settings.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence

from harness.ports import free_port

#: No automatic persistence: data is written to disk only when a test asks (SAVE).
NOT_PERSISTED = {"save": "", "appendonly": "no"}


class RedisServer:
    """One redis-server process; stop() and start() keep its port and its directory, so data
    written there with SAVE comes back after a restart.

    Use it as a context manager: ``with RedisServer() as server: connect(server.url)``.
    `settings` override or add to the defaults (underscores stand for dashes); `mode` is put
    before them on the command line (``("--sentinel",)``).
    """

    def __init__(self, port: int | None = None, mode: Sequence[str] = (),
                 **settings: str | tuple[str, ...]) -> None:
        self.port = port or free_port()
        self.directory = tempfile.mkdtemp(prefix="redis-")
        self.mode = tuple(mode)
        self.settings = {**NOT_PERSISTED, **settings}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The REDIS_URL that reaches this server."""
        return f"redis://127.0.0.1:{self.port}/0"

    def command(self) -> list[str]:
        """The redis-server command line: loopback, this port and directory, then the settings."""
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        fixed = {"port": str(self.port), "bind": "127.0.0.1", "daemonize": "no",
                 "loglevel": "warning", "dir": self.directory}
        arguments = [binary, *self.mode]
        for name, value in {**fixed, **self.settings}.items():
            arguments += [f"--{name.replace('_', '-')}", *(value if isinstance(value, tuple)
                                                           else (value,))]
        return arguments

    def start(self, timeout: float = 5.0) -> RedisServer:
        """Start the server and wait until it accepts connections."""
        self.process = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while not self._answers_ping():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        """Kill the server (no shutdown save) and wait for it to exit."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=5)
            self.process = None

    def _answers_ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)
