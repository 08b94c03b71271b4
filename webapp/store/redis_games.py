"""Game records in Redis, for any number of processes and hosts.

Each game is a hash ``game:<id>`` of the record's fields, with the record's lifetime as its TTL
(an hour until the first move, then SESSION_LIFETIME_DAYS, renewed by every write, and the TTL
of the session that wrote it with it, in the same script). A write is a small Lua
compare-and-set on the ``version`` field, so no lock exists that a hung or crashed worker could
leave behind. With ``maxmemory-policy volatile-ttl`` Redis, when full, evicts the keys closest
to expiry first: unplayed games, then the least recently played (see docs/deploy.md).
A game's review is one more field of its hash (``review``, written by `webapp.review`), so it
lives and goes with the game; reads name the fields they need, so a move never reads the review,
nor a list of games the positions.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TypeVar

from redis import Redis

from webapp.store.records import (
    FIELD_TYPES,
    LEGACY_FIELDS,
    SUMMARY_FIELDS,
    GameRecord,
    GameSummary,
)
from webapp.store.retention import Retention

log = logging.getLogger(__name__)

KEY_PREFIX = "game:"
_FIELDS = tuple(FIELD_TYPES)
_READ = _FIELDS + LEGACY_FIELDS  # a game written before it was one text has these instead
Read = TypeVar("Read", GameRecord, GameSummary)

# KEYS[1] the game, KEYS[2] (if given) the session to renew with it; ARGV[1] the version read
# ("" for a new game), ARGV[2] the TTL in ms, then field, value pairs. Writes and returns 1 if the
# stored version is still the one read; the session's TTL is pushed as far, never shortened. The
# game's two texts from before it was one (records.LEGACY_FIELDS) go: the one written replaces them.
_COMPARE_AND_SET = f"""
local stored = redis.call('HGET', KEYS[1], 'version')
if ARGV[1] == '' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
elseif stored ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('HDEL', KEYS[1], {", ".join(f"'{name}'" for name in LEGACY_FIELDS)})
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if KEYS[2] and redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return 1
"""

def _text(value: object) -> str:
    """A field as Redis keeps it: bools as 0/1, floats exactly (repr round-trips)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return repr(value) if isinstance(value, float) else str(value)


class RedisGames:
    """The `GameStore` on Redis."""

    def __init__(self, client: Redis, retention: Retention) -> None:
        self.client, self.retention = client, retention
        self._compare_and_set = client.register_script(_COMPARE_AND_SET)

    def get(self, game_id: str) -> GameRecord | None:
        """The game, unless it is missing (expired keys are gone) or unreadable (logged)."""
        values = self.client.hmget(KEY_PREFIX + game_id, _READ)
        return _read(GameRecord, game_id, dict(zip(_READ, values)))

    def summaries(self, game_ids: Iterable[str]) -> list[GameSummary]:
        """The listing fields of each kept game, in one round trip."""
        wanted = tuple(dict.fromkeys(game_ids))
        pipeline = self.client.pipeline(transaction=False)
        for game_id in wanted:
            pipeline.hmget(KEY_PREFIX + game_id, SUMMARY_FIELDS)
        found = (_read(GameSummary, game_id, dict(zip(SUMMARY_FIELDS, values)))
                 for game_id, values in zip(wanted, pipeline.execute()))
        return [summary for summary in found if summary is not None]

    def add(self, record: GameRecord) -> None:
        """Store a new game (Redis makes room by its own eviction policy)."""
        if not self._write(record, expected=""):
            raise ValueError(f"game {record.id} exists already")

    def replace(self, record: GameRecord, session_id: str = "") -> bool:
        """Compare-and-set on the version, renewing the session key `session_id` with it."""
        return self._write(record, expected=str(record.version), session_id=session_id)

    def _write(self, record: GameRecord, expected: str, session_id: str = "") -> bool:
        fields = record.to_fields()
        fields["version"] = record.version + (expected != "")
        ttl_ms = int(self.retention.lifetime(record.played) * 1000)
        pairs = [item for name, value in fields.items() for item in (name, _text(value))]
        keys = [KEY_PREFIX + record.id, *([session_id] if session_id else [])]
        written = self._compare_and_set(keys=keys, args=[expected, ttl_ms, *pairs]) == 1
        if written:
            record.version = fields["version"]
            record.stored_played = record.played
        return written


def _read(kind: type[Read], game_id: str, fields: dict[str, bytes | None]) -> Read | None:
    """A `kind` (GameRecord or GameSummary) from its fields; None if the game is gone (every
    field missing) or does not read back (logged)."""
    if all(value is None for value in fields.values()):
        return None
    try:
        present = {name: value for name, value in fields.items() if value is not None}
        return kind.from_fields(present)
    except ValueError as error:
        log.warning("game %s does not read back, ignored: %s", game_id, error)
        return None
