"""A TCP proxy on a free loopback port that can hold the bytes it carries, as a network
partition would: connections stay open, nothing arrives. Put between a Redis primary and its
replica, it holds back replication while the primary goes on acknowledging writes."""

from __future__ import annotations

import socket
import threading

from harness.ports import free_port


class HoldingProxy:
    """Forwards every connection made to `port` to `target_port` on loopback, both ways;
    `hold()` keeps what arrives from then on until `release()`."""

    def __init__(self, target_port: int) -> None:
        self.target_port, self.port = target_port, free_port()
        self._flowing = threading.Event()
        self._flowing.set()
        self._sockets: list[socket.socket] = []
        self._listener = socket.create_server(("127.0.0.1", self.port))

    def hold(self) -> None:
        """From now on, bytes are read but not passed on."""
        self._flowing.clear()

    def release(self) -> None:
        """Pass on what was held, and whatever comes after."""
        self._flowing.set()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self._listener.accept()
            except OSError:
                return  # closed
            try:
                far = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:  # the target is down: so is the connection made to it
                near.close()
                continue
            self._sockets += [near, far]
            for source, sink in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self._flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            end.close()

    def __enter__(self) -> HoldingProxy:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        """Close everything; bytes still held are dropped, never delivered."""
        self._listener.close()
        for end in self._sockets:
            end.close()
        self._flowing.set()
