"""A real, throw-away redis-server on a free loopback port, for tests and benchmarks."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """One redis-server process without automatic persistence; stop() and start() keep its port
    and its directory, so data written there with SAVE comes back after a restart.

    Use it as a context manager: ``with RedisServer() as server: connect(server.url)``.
    """

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.directory = tempfile.mkdtemp(prefix="redis-")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The REDIS_URL that reaches this server."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 5.0) -> RedisServer:
        """Start the server and wait until it accepts connections."""
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning",
             "--dir", self.directory],
            stdout=subprocess.DEVNULL,
        )
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
