"""Real, throw-away redis-servers on free loopback ports, for tests and benchmarks.

`RedisServer` takes any redis-server setting as a keyword (``appendonly="yes"``, or a setting of
several words as a tuple: ``replicaof=("127.0.0.1", "6380")``), so replicas, Sentinels
(``--sentinel``, through `mode`) and cluster nodes (``cluster_enabled="yes"``) are the same class
started with other settings. Built on it: `Sentinels`, a few Sentinels watching one primary
(failing over within a second or two); `replicated`, a primary, replicas reaching it through a
proxy that can hold the link as a partition would (`harness.tcp_proxy`) and Sentinels; and
`Cluster`, a Redis Cluster of a few primaries made with ``redis-cli --cluster create``.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from harness.ports import free_port, free_port_with
from harness.tcp_proxy import HoldingProxy

#: No automatic persistence: data is written to disk only when a test asks (SAVE); a replica's
#: first sync starts at once (Redis waits 5 s by default for more replicas to share it).
NOT_PERSISTED = {"save": "", "appendonly": "no", "repl_diskless_sync_delay": "0"}
#: A cluster node talks to the others on its port + 10000.
BUS_PORT_OFFSET = 10000


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

    def ask(self, *command: str) -> str:
        """One command's answer, as redis-cli prints it."""
        cli = shutil.which("redis-cli") or "/usr/bin/redis-cli"
        return subprocess.run([cli, "-p", str(self.port), *command], capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


def until(done: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll `done` every 50 ms until it holds; RuntimeError naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not within {timeout} s")
        time.sleep(0.05)


def wait_for_replicas(primary: RedisServer, count: int, timeout: float = 15.0) -> None:
    """Wait until `count` replicas are in sync with `primary`."""
    until(lambda: primary.ask("INFO", "replication").count("state=online") >= count,
          timeout, f"{count} replicas of :{primary.port} online")


def replication_offset(server: RedisServer, field: str) -> int:
    """One offset of ``INFO replication`` (master_repl_offset, slave_repl_offset)."""
    for line in server.ask("INFO", "replication").splitlines():
        name, _, value = line.partition(":")
        if name == field:
            return int(value)
    raise RuntimeError(f":{server.port} reports no {field}")


class ServerGroup:
    """Servers started and stopped together (`servers`), named by one setting of the app."""

    servers: list[RedisServer]

    @property
    def nodes(self) -> list[tuple[str, int]]:
        """Their addresses, as the app's setting (REDIS_SENTINELS, REDIS_CLUSTER_NODES) holds
        them."""
        return [("127.0.0.1", server.port) for server in self.servers]

    @property
    def addresses(self) -> str:
        """The same, as the environment gives it."""
        return ",".join(f"{host}:{port}" for host, port in self.nodes)

    def __exit__(self, *exc: object) -> None:
        for server in self.servers:
            server.__exit__()


class Sentinels(ServerGroup):
    """`count` Sentinels watching the primary at `primary_port` under the name `service`:
    it is down for them after `down_after_ms`, and `quorum` of them agreeing start a failover,
    which promotes one of its replicas (about a second or two on loopback)."""

    def __init__(self, primary_port: int, service: str = "games", count: int = 3,
                 quorum: int = 2, down_after_ms: int = 300) -> None:
        self.service = service
        lines = [f"sentinel monitor {service} 127.0.0.1 {primary_port} {quorum}",
                 f"sentinel down-after-milliseconds {service} {down_after_ms}",
                 f"sentinel failover-timeout {service} {max(1000, 4 * down_after_ms)}"]
        self.servers = [RedisServer() for _ in range(count)]
        for server in self.servers:  # a Sentinel rewrites its file: each one has its own
            path = Path(server.directory) / "sentinel.conf"
            path.write_text("\n".join(lines) + "\n")
            server.mode, server.settings = (str(path), "--sentinel"), {}

    def primary_port(self) -> int | None:
        """The port of the primary every Sentinel names and none holds down, as a client
        finding the primary checks it (redis-py's `discover_master`); None while they differ,
        one does not answer, or the primary is down for one of them."""
        named = set()
        for server in self.servers:
            try:
                lines = server.ask("SENTINEL", "master", self.service).splitlines()
            except subprocess.CalledProcessError:
                return None
            state = dict(zip(lines[::2], lines[1::2]))
            if state.get("flags") != "master":
                return None
            named.add(int(state["port"]))
        return named.pop() if len(named) == 1 else None

    def __enter__(self) -> Sentinels:
        for server in self.servers:
            server.start()
        return self


@dataclass
class Replicated:
    """A primary, replicas reaching it through `link`, and the Sentinels watching them."""

    primary: RedisServer
    replicas: list[RedisServer]
    link: HoldingProxy
    sentinels: Sentinels

    def settings(self) -> dict[str, object]:
        """An app's settings for these Sentinels."""
        return {"SESSION_BACKEND": "redis", "REDIS_SENTINELS": self.sentinels.nodes,
                "REDIS_SENTINEL_SERVICE": self.sentinels.service}

    def caught_up(self, timeout: float = 15.0) -> None:
        """Wait until every replica has applied all the primary has written so far (each
        replica's own offset, not the primary's view of it, which replicas report once a
        second)."""
        written = replication_offset(self.primary, "master_repl_offset")
        until(lambda: all(replication_offset(replica, "slave_repl_offset") >= written
                          for replica in self.replicas),
              timeout, f"replicas caught up with :{self.primary.port}")

    def fail_over(self, timeout: float = 20.0) -> RedisServer:
        """kill -9 the primary (the bytes the link holds die with it, never delivered); the
        replica the Sentinels promote, once they name it."""
        self.primary.stop()
        self.link.__exit__()
        ports = {replica.port: replica for replica in self.replicas}
        until(lambda: self.sentinels.primary_port() in ports, timeout,
              "a replica promoted, every Sentinel naming it")
        return ports[self.sentinels.primary_port()]


@contextmanager
def replicated(replicas: int) -> Iterator[Replicated]:
    """A primary with `replicas` replicas in sync, behind one link, and three Sentinels."""
    with ExitStack() as servers:
        primary = servers.enter_context(RedisServer())
        link = servers.enter_context(HoldingProxy(primary.port))
        copies = [servers.enter_context(RedisServer(replicaof=("127.0.0.1", str(link.port))))
                  for _ in range(replicas)]
        sentinels = servers.enter_context(Sentinels(primary.port))
        wait_for_replicas(primary, replicas)
        yield Replicated(primary, copies, link, sentinels)


class Cluster(ServerGroup):
    """A Redis Cluster of `primaries` primaries (and `replicas` replicas each), made with
    ``redis-cli --cluster create``; ready once every node says ``cluster_state:ok``."""

    def __init__(self, primaries: int = 3, replicas: int = 0, node_timeout_ms: int = 1000
                 ) -> None:
        self.replicas = replicas
        self.servers = [RedisServer(free_port_with(BUS_PORT_OFFSET), cluster_enabled="yes",
                                    cluster_node_timeout=str(node_timeout_ms))
                        for _ in range(primaries * (1 + replicas))]

    def flush(self) -> None:
        """Empty every primary (replicas follow)."""
        for server in self.servers:
            if "role:master" in server.ask("INFO", "replication"):
                server.ask("FLUSHALL")

    def __enter__(self) -> Cluster:
        for server in self.servers:
            server.start()
        cli = shutil.which("redis-cli") or "/usr/bin/redis-cli"
        subprocess.run([cli, "--cluster", "create",
                        *(f"127.0.0.1:{server.port}" for server in self.servers),
                        "--cluster-replicas", str(self.replicas), "--cluster-yes"],
                       capture_output=True, timeout=60, check=True)
        until(lambda: all("cluster_state:ok" in server.ask("CLUSTER", "INFO")
                          for server in self.servers), 30, "the cluster's state ok")
        for server in self.servers:  # a replica's first sync, which a WAIT would wait for
            if "role:master" in server.ask("INFO", "replication"):
                wait_for_replicas(server, self.replicas, timeout=30)
        return self
