"""Game records in Redis, for any number of processes and hosts.

Each game is a hash ``game:<id>`` of the record's fields, with the record's lifetime as its TTL
(an hour until the first move, then SESSION_LIFETIME_DAYS, renewed by every write, and the TTL
of the session that wrote it with it, in the same round trip). A write is a small Lua
compare-and-set on the ``version`` field, so no lock exists that a hung or crashed worker could
leave behind. Every script touches one key, so on a cluster a game and its session may be on
any nodes (`webapp.store.redis_writes` sends each to its own, and waits for replicas to hold
them when asked to). With ``maxmemory-policy volatile-ttl`` Redis, when full, evicts the keys
closest to expiry first: unplayed games, then the least recently played (see docs/deploy.md).
A game's review is one more field of its hash (``review``, written by `webapp.review`), so it
lives and goes with the game; reads name the fields they need, so a move never reads the review,
nor a list of games the positions.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TypeVar

from webapp.store.game_record import (
    FIELD_TYPES,
    LEGACY_FIELDS,
    SUMMARY_FIELDS,
    GameRecord,
    GameSummary,
)
from webapp.store.redis_writes import Writes, script_run
from webapp.store.retention import Retention

log = logging.getLogger(__name__)

KEY_PREFIX = "game:"
_FIELDS = tuple(FIELD_TYPES)
_READ = _FIELDS + LEGACY_FIELDS  # a game written before it was one text has these instead
Read = TypeVar("Read", GameRecord, GameSummary)

# KEYS[1] the game; ARGV[1] the version read ("" for a new game), ARGV[2] the TTL in ms, then
# field, value pairs. Writes and returns 1 if the stored version is still the one read. The
# game's two texts from before it was one (game_record.LEGACY_FIELDS) go: the one written
# replaces them.
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
return 1
"""

# KEYS[1] the session that wrote a game; ARGV[1] the game's TTL in ms. The session's TTL is
# pushed as far, never shortened.
_RENEW_SESSION = """
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
"""

# KEYS[1] a game. Writes the game's TTL again, as it is: a write, so that a WAIT after it waits
# for the replicas to hold everything written to the game before.
_FENCE = """
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return ttl
"""

def _text(value: object) -> str:
    """A field as Redis keeps it: bools as 0/1, floats exactly (repr round-trips)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return repr(value) if isinstance(value, float) else str(value)


class RedisGames:
    """The `GameStore` on Redis."""

    def __init__(self, writes: Writes, retention: Retention) -> None:
        self.writes, self.client, self.retention = writes, writes.client, retention
        self._compare_and_set = self.client.register_script(_COMPARE_AND_SET)
        self._renew_session = self.client.register_script(_RENEW_SESSION)
        self._fence = self.client.register_script(_FENCE)

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

    def settle(self, record: GameRecord) -> None:
        """Return once the replicas waited for hold the game as read (an answer that changes
        nothing still acknowledges what it shows: a retry whose move was written, but not yet
        held by replicas when it was first answered)."""
        if self.writes.replicas:
            self.writes.run(script_run(self._fence, [KEY_PREFIX + record.id], []))

    def _write(self, record: GameRecord, expected: str, session_id: str = "") -> bool:
        fields = record.to_fields()
        fields["version"] = record.version + (expected != "")
        ttl_ms = int(self.retention.lifetime(record.played) * 1000)
        pairs = [item for name, value in fields.items() for item in (name, _text(value))]
        game = script_run(self._compare_and_set, [KEY_PREFIX + record.id],
                          [expected, ttl_ms, *pairs])
        renew = [script_run(self._renew_session, [session_id], [ttl_ms])] if session_id else []
        written = self.writes.run(game, *renew)[0] == 1
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
