"""Game records in Redis, for any number of processes and hosts.

Each game is a hash ``game:<id>`` of the record's fields, with the record's lifetime as its TTL
(an hour until the first move, then SESSION_LIFETIME_DAYS, renewed by every write). A write is
a small Lua compare-and-set on the ``version`` field, so no lock exists that a hung or crashed
worker could leave behind. With ``maxmemory-policy volatile-ttl`` Redis, when full, evicts the
keys closest to expiry first: unplayed games, then the least recently played (see the README).
"""

from __future__ import annotations

import logging

from redis import Redis

from webapp.store.records import GameRecord
from webapp.store.retention import Retention

log = logging.getLogger(__name__)

KEY_PREFIX = "game:"

# KEYS[1] the game; ARGV[1] the version read ("" for a new game), ARGV[2] the TTL in ms, then
# field, value pairs. Writes and returns 1 if the stored version is still the one read.
_COMPARE_AND_SET = """
local stored = redis.call('HGET', KEYS[1], 'version')
if ARGV[1] == '' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
elseif stored ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
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
        fields = self.client.hgetall(KEY_PREFIX + game_id)
        if not fields:
            return None
        try:
            return GameRecord.from_fields({key.decode(): value for key, value in fields.items()})
        except (ValueError, UnicodeDecodeError) as error:
            log.warning("game %s does not read back, ignored: %s", game_id, error)
            return None

    def add(self, record: GameRecord) -> None:
        """Store a new game (Redis makes room by its own eviction policy)."""
        if not self._write(record, expected=""):
            raise ValueError(f"game {record.id} exists already")

    def replace(self, record: GameRecord) -> bool:
        """Compare-and-set on the version."""
        return self._write(record, expected=str(record.version))

    def _write(self, record: GameRecord, expected: str) -> bool:
        fields = record.to_fields()
        fields["version"] = record.version + (expected != "")
        ttl_ms = int(self.retention.lifetime(record.played) * 1000)
        pairs = [item for name, value in fields.items() for item in (name, _text(value))]
        written = self._compare_and_set(keys=[KEY_PREFIX + record.id],
                                        args=[expected, ttl_ms, *pairs]) == 1
        if written:
            record.version = fields["version"]
            record.stored_played = record.played
        return written
