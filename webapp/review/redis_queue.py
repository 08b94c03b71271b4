"""Reviews in Redis beside the games: each game's review text in one more field of its hash
(``game:<id>``, field ``review``), so it lives and goes with the game; and the queue, a sorted set
of the games in the order asked (``{reviews}:queue``), a hash per entry
(``{reviews}:entry:<game>``: the client, the lease and its holder) and a key per client naming
its entry (``{reviews}:client:<address or session>``). Each write is one Lua script, so no two
workers see the queue or a review half changed; the queue's keys share the hash tag
``{reviews}``, so that on a cluster they are in one slot, where its scripts can reach them all
(the queue is short: at most `webapp.review.worker.MAX_WAITING` entries)."""

from __future__ import annotations

import logging

from redis import Redis

from webapp.store.redis_client import address
from webapp.store.redis_games import KEY_PREFIX

log = logging.getLogger(__name__)

REVIEW_FIELD = "review"
QUEUE = "{reviews}:queue"
ENTRY = "{reviews}:entry:"
CLIENT = "{reviews}:client:"
#: Entries and client keys go by themselves after a day, should their game go first.
KEPT_SECONDS = 86400

# KEYS[1] the game; ARGV[1] "1" if a review is expected, ARGV[2] that review, ARGV[3] the new
# one. Writes and returns 1 if the game exists and its review is still the one expected.
_REPLACE_REVIEW = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local stored = redis.call('HGET', KEYS[1], 'review')
if ARGV[1] == '1' then
  if stored ~= ARGV[2] then return 0 end
elseif stored then
  return 0
end
redis.call('HSET', KEYS[1], 'review', ARGV[3])
return 1
"""

# KEYS: queue, the game's entry, the address's key, the session's key.
# ARGV: game, address, session, now, kept seconds.
_ADD = f"""
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('HSET', KEYS[2], 'lease_until', 0, 'holder', '')
  return 1
end
for _, client in ipairs({{KEYS[3], KEYS[4]}}) do
  local other = redis.call('GET', client)
  if other and redis.call('EXISTS', '{ENTRY}' .. other) == 1 then return 0 end
end
redis.call('HSET', KEYS[2], 'address', ARGV[2], 'session', ARGV[3], 'lease_until', 0,
           'holder', '')
redis.call('EXPIRE', KEYS[2], ARGV[5])
redis.call('SET', KEYS[3], ARGV[1], 'EX', ARGV[5])
redis.call('SET', KEYS[4], ARGV[1], 'EX', ARGV[5])
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
return 1
"""

# KEYS: queue. ARGV: now, then (to take the oldest free entry) the holder and the lease's end.
# The free entries' count, or the game taken; entries gone by themselves leave the queue.
_FREE = f"""
local count = 0
for _, game in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local lease = redis.call('HGET', '{ENTRY}' .. game, 'lease_until')
  if not lease then
    redis.call('ZREM', KEYS[1], game)
  elseif tonumber(lease) < tonumber(ARGV[1]) then
    if ARGV[2] then
      redis.call('HSET', '{ENTRY}' .. game, 'lease_until', ARGV[3], 'holder', ARGV[2])
      return game
    end
    count = count + 1
  end
end
if ARGV[2] then return false end
return count
"""

# KEYS: the game's entry. ARGV: the holder, the lease's end. 1 if renewed.
_RENEW = """
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'lease_until', ARGV[2])
return 1
"""

# KEYS: queue, the game's entry. ARGV: game, holder.
_REMOVE = f"""
if redis.call('HGET', KEYS[2], 'holder') ~= ARGV[2] then return 0 end
for _, field in ipairs({{'address', 'session'}}) do
  local client = '{CLIENT}' .. redis.call('HGET', KEYS[2], field)
  if redis.call('GET', client) == ARGV[1] then redis.call('DEL', client) end
end
redis.call('DEL', KEYS[2])
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
"""


class RedisReviewQueue:
    """`ReviewQueue` in Redis."""

    def __init__(self, client: Redis) -> None:
        self.client, self.where = client, address(client)
        self._replace_review = client.register_script(_REPLACE_REVIEW)
        self._add = client.register_script(_ADD)
        self._free = client.register_script(_FREE)
        self._renew = client.register_script(_RENEW)
        self._remove = client.register_script(_REMOVE)

    def review(self, game_id: str) -> str | None:
        """The review field, as text."""
        value = self.client.hget(KEY_PREFIX + game_id, REVIEW_FIELD)
        try:
            return None if value is None else value.decode("utf-8")
        except UnicodeDecodeError:
            log.warning("the review of game %s is not UTF-8, ignored", game_id)
            return None

    def replace_review(self, game_id: str, expected: str | None, review: str) -> bool:
        """Compare-and-set on the review field, in a small Lua script."""
        args = ["0", "", review] if expected is None else ["1", expected, review]
        return self._replace_review(keys=[KEY_PREFIX + game_id], args=args) == 1

    def add(self, game_id: str, address: str, session: str, now: float) -> bool:
        keys = [QUEUE, ENTRY + game_id, CLIENT + address, CLIENT + session]
        return bool(self._add(keys=keys, args=[game_id, address, session, now, KEPT_SECONDS]))

    def waiting(self, now: float) -> int:
        return int(self._free(keys=[QUEUE], args=[now]))

    def take(self, holder: str, lease: float, now: float) -> str | None:
        taken = self._free(keys=[QUEUE], args=[now, holder, now + lease])
        return taken.decode() if isinstance(taken, bytes) else taken

    def renew(self, game_id: str, holder: str, lease: float, now: float) -> bool:
        return bool(self._renew(keys=[ENTRY + game_id], args=[holder, now + lease]))

    def remove(self, game_id: str, holder: str) -> None:
        self._remove(keys=[QUEUE, ENTRY + game_id], args=[game_id, holder])
