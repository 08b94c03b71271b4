"""Writes to Redis that a player's answer stands on, acknowledged only once replicas hold them.

Redis replicates asynchronously: a primary that dies takes with it whatever its replicas had not
received yet, and the replica promoted in its place (by Sentinel, or by a cluster's own
failover) never had it. With ``REDIS_WAIT_REPLICAS`` = n, the writes behind an answer (a move,
a new game, a session, an entry in the records table) are followed on the same connection, in
the same round trip, by ``WAIT n timeout``: the answer waits until n replicas hold everything
the connection wrote, and when they do not within ``REDIS_WAIT_TIMEOUT`` the player gets a 503
(the page sends the request again) rather than an acknowledgement a failover could take back.
The write itself stays on the primary, so the retry finds it applied, and answers it once
replicas hold it (`RedisGames.settle`).

WAIT counts what its own connection wrote, so the writes and the WAIT go in one pipeline: one
round trip per server the writes touch (in a cluster, each key's primary). Without replicas to
wait for, the same pipelines go without the WAIT.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redis import Redis
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.exceptions import MovedError, NoScriptError, RedisError

from webapp.store.redis_client import Client


class ReplicasBehind(RedisError):
    """Fewer replicas than REDIS_WAIT_REPLICAS acknowledged a write in time: its answer is a
    503, though the write is on the primary."""


@dataclass(frozen=True)
class Write:
    """One write command (its words) on `key`'s server; `script`, the Lua text an EVALSHA
    runs, is loaded first on a server that lacks it."""

    key: str
    words: tuple[Any, ...]
    script: str | None = None


def script_run(script: Script, keys: Sequence[str], args: Sequence[Any]) -> Write:
    """A Write running a script registered with redis-py (`register_script`), on its first
    key's server (a script's keys share one slot)."""
    return Write(keys[0], ("EVALSHA", script.sha, len(keys), *keys, *args), script.script)


class Writes:
    """Runs `Write`s on their servers, each server's in one pipeline ending in WAIT when
    `replicas` are to be waited for (at most `timeout` seconds)."""

    def __init__(self, client: Client, replicas: int = 0, timeout: float = 0.1) -> None:
        self.client, self.replicas, self.timeout_ms = client, replicas, int(timeout * 1000)

    def run(self, *writes: Write) -> list[Any]:
        """Each write's answer, in order; ReplicasBehind (or another RedisError) if a server's
        writes are not held by enough replicas in time, or one of them failed. A write sent to
        a node that no longer holds its slot (a cluster's failover or resharding) did not run:
        it is sent again, alone, once the cluster's map is read again."""
        answers = self._run(writes)
        moved = [place for place, answer in enumerate(answers) if isinstance(answer, MovedError)]
        if moved:
            self.client.nodes_manager.initialize()  # type: ignore[union-attr]
            for place, answer in zip(moved, self._run([writes[place] for place in moved])):
                answers[place] = answer
        for answer in answers:
            if isinstance(answer, Exception):
                raise answer
        return answers

    def _run(self, writes: Sequence[Write]) -> list[Any]:
        """Each write's answer or error, each server's writes in one round trip."""
        answers: list[Any] = [None] * len(writes)
        for server, places in self._by_server(writes):
            for place, answer in zip(places, self._on(server, [writes[p] for p in places])):
                answers[place] = answer
        return answers

    def _by_server(self, writes: Sequence[Write]) -> list[tuple[Redis, list[int]]]:
        """The writes' places grouped by the server that holds their key."""
        if not isinstance(self.client, RedisCluster):
            return [(self.client, list(range(len(writes))))]
        groups: dict[str, tuple[Redis, list[int]]] = {}
        for place, write in enumerate(writes):
            node = self.client.get_node_from_key(write.key)
            server = node.redis_connection or self.client.get_redis_connection(node)
            groups.setdefault(node.name, (server, []))[1].append(place)
        return list(groups.values())

    def _on(self, server: Redis, writes: list[Write]) -> list[Any]:
        """The writes' answers (or errors) from one server. Those refused for a script the server
        lacks (a restart, a failover) are sent again once it is loaded; only those: the others
        ran."""
        answers = self._pipelined(server, writes)
        missing = [place for place, answer in enumerate(answers)
                   if isinstance(answer, NoScriptError)]
        if missing:
            for script in {writes[place].script for place in missing} - {None}:
                server.script_load(script)
            again = self._pipelined(server, [writes[place] for place in missing])
            for place, answer in zip(missing, again):
                answers[place] = answer
        return answers

    def _pipelined(self, server: Redis, writes: list[Write]) -> list[Any]:
        """One round trip: the writes, and WAIT after them; each write's answer or error."""
        pipeline = server.pipeline(transaction=False)
        for write in writes:
            pipeline.execute_command(*write.words)
        if self.replicas:
            pipeline.wait(self.replicas, self.timeout_ms)
        answers = pipeline.execute(raise_on_error=False)
        if self.replicas:
            held = answers.pop()
            if isinstance(held, Exception):
                raise held
            if held < self.replicas:
                # A primary cut off from its replicas may no longer be the primary: the next
                # connection asks the Sentinels again (if there are any).
                server.connection_pool.disconnect(inuse_connections=False)
                raise ReplicasBehind(f"{held} of {self.replicas} replicas acknowledged a write "
                                     f"within {self.timeout_ms} ms")
        return answers
