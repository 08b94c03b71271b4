"""Free loopback ports: every server a test or a benchmark starts takes one of its own."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def is_free(port: int) -> bool:
    """Whether nothing listens on `port` of 127.0.0.1 now."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port_with(offset: int) -> int:
    """A free port whose port + `offset` is free too (a cluster node's bus port is its
    port + 10000)."""
    while True:
        port = free_port()
        if port + offset < 65536 and is_free(port + offset):
            return port
