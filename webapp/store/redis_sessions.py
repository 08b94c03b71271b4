"""Browser sessions in Redis, through Flask-Session's Redis interface."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from flask_session.base import ServerSideSession
from flask_session.redis import RedisSessionInterface
from redis import Redis

from webapp.store.redis_client import address
from webapp.store.retention import Retention
from webapp.store.sessions import StoreSessions


class RedisSessions(StoreSessions, RedisSessionInterface):
    """Sessions as ``session:<id>`` strings whose TTL is the session's lifetime."""

    def __init__(self, app: Flask, client: Redis, retention: Retention) -> None:
        super().__init__(app, client=client, key_prefix="session:", permanent=True)
        self.retention, self.where = retention, address(client)

    def _retrieve_session_data(self, store_id: str) -> dict | None:
        raw = self.client.get(store_id)
        return self.decode(raw) if raw else None

    def _upsert_session(
        self, session_lifetime: timedelta, session: ServerSideSession, store_id: str
    ) -> None:
        data = self.serializer.encode(session)
        self.client.set(store_id, data, px=int(self.lifetime(session) * 1000))
