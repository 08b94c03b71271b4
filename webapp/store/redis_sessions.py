"""Browser sessions in Redis, through Flask-Session's interface: one key each, whose TTL is the
session's lifetime; a session's write waits for replicas like a game's
(`webapp.store.redis_writes`). Not Flask-Session's own Redis interface, which takes one Redis
server only, where this takes any client `webapp.store.redis_client` builds (a cluster's too)."""

from __future__ import annotations

import logging
from datetime import timedelta

from flask import Flask
from flask_session.base import ServerSideSession

from webapp.store.errors import STORE_ERRORS, fault_text
from webapp.store.redis_client import address
from webapp.store.redis_writes import Write, Writes
from webapp.store.retention import Retention
from webapp.store.sessions import RENEWED, StoreSessions

log = logging.getLogger(__name__)


class RedisSessions(StoreSessions):
    """Sessions as ``session:<id>`` strings whose TTL is the session's lifetime; a move of one
    of its games pushes the TTL as far as the game's (`RedisGames.replace`). A session's fresh
    id is written first, then its old one's marker (their keys may be on two shards)."""

    ttl = True  # Redis expires them: no periodic clean-up

    def __init__(self, app: Flask, writes: Writes, retention: Retention) -> None:
        super().__init__(app, key_prefix="session:", permanent=True)
        self.writes, self.client, self.retention = writes, writes.client, retention
        self.where = address(writes.client)

    def _retrieve_session_data(self, store_id: str) -> dict | None:
        raw = self.client.get(store_id)
        return self.decode(raw) if raw else None

    def _delete_session(self, store_id: str) -> None:
        self.client.delete(store_id)

    def _upsert_session(
        self, session_lifetime: timedelta, session: ServerSideSession, store_id: str
    ) -> None:
        data = self.serializer.encode(session)
        lifetime_ms = int(self.lifetime(session) * 1000)
        self.writes.run(Write(store_id, ("SET", store_id, data, "PX", lifetime_ms)))
        if replaced := self.replaced_id(session):
            self._mark_renewed(replaced)

    def _mark_renewed(self, store_id: str) -> None:
        """The old key becomes RENEWED for the grace, if it is still there (XX). Only once the
        session is written under its new id: a fault here leaves the old one to expire."""
        grace_ms = int(self.renewal_grace * 1000)
        try:
            self.writes.run(Write(store_id, ("SET", store_id, self.serializer.encode(RENEWED),
                                             "PX", grace_ms, "XX")))
        except STORE_ERRORS as error:
            log.warning("session store %s: cannot mark a renewed session: %s", self.where,
                        fault_text(error))
