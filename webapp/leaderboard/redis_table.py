"""The records table in Redis: a hash per entry (``{records}:entry:<game>``, its frozen game
among its fields) and sorted sets ordering the shown entries by score, the structure Redis
offers for exactly this: ``{records}:all`` and one per day (``{records}:day:<YYYY-MM-DD>``), and
``{records}:entered`` by time of entry, for the operator's list. No key has a TTL, so Redis's
eviction (``volatile-ttl``) never takes one. Adding and hiding are each one Lua script; every
key shares the hash tag ``{records}``, so that on a cluster the table is in one slot, where
they reach all of it (the table is small: only entered games are in it). An entry's write waits
for replicas like a move's (`webapp.store.redis_writes`). Keys named before the hash tag
(``records:...``) are renamed at start-up (`rename_untagged_keys`).

Redis orders equal scores by member; the table's order (the earlier entry first) is applied
to the front of the set, read with every entry that ties with the last one shown.
"""

from __future__ import annotations

import logging

from redis import Redis
from redis.cluster import RedisCluster
from redis.exceptions import RedisError

from webapp.leaderboard.entry import SHOWN, Entry, frozen_game, thawed_game
from webapp.store.errors import fault_text
from webapp.store.game_record import GameRecord
from webapp.store.redis_client import address
from webapp.store.redis_writes import Writes, script_run

log = logging.getLogger(__name__)

TAG = "{records}:"
ENTRY, ALL, DAY, ENTERED = TAG + "entry:", TAG + "all", TAG + "day:", TAG + "entered"
#: The prefix of the keys' names before they shared a hash tag.
UNTAGGED = "records:"
_FIELDS = ("name", "score", "best_tile", "moves", "day", "entered", "hidden")

# KEYS: the entry, all, entered, then the day's set if the entry has a day. ARGV: game id,
# score, entered, then field, value pairs. 1 if added, 0 if the game is entered already.
_ADD = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
if KEYS[4] then redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1]) end
return 1
"""

# KEYS: the entry, all, then its day's set if it has a day. ARGV: game id. 1 if hidden, 0 if
# there is no entry.
_HIDE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'hidden', '1')
redis.call('ZREM', KEYS[2], ARGV[1])
if KEYS[3] then redis.call('ZREM', KEYS[3], ARGV[1]) end
return 1
"""


class RedisLeaderboardTable:
    """`LeaderboardTable` on Redis."""

    def __init__(self, writes: Writes) -> None:
        self.writes, self.client = writes, writes.client
        self._add = self.client.register_script(_ADD)
        self._hide = self.client.register_script(_HIDE)

    def add(self, entry: Entry, game: GameRecord) -> bool:
        """Write the entry's hash and put it in its sorted sets, unless it exists."""
        fields = {name: getattr(entry, name) for name in _FIELDS}
        fields.update(day=entry.day or "", hidden=int(entry.hidden), entered=repr(entry.entered),
                      game=frozen_game(game))
        keys = [ENTRY + entry.game_id, ALL, ENTERED, *([DAY + entry.day] if entry.day else [])]
        pairs = [item for pair in fields.items() for item in pair]
        args = [entry.game_id, entry.score, repr(entry.entered), *pairs]
        return self.writes.run(script_run(self._add, keys, args))[0] == 1

    def top(self, day: str | None = None, limit: int = SHOWN) -> list[Entry]:
        """The set's front, with every entry tying with the last one, in the table's order."""
        key = DAY + day if day else ALL
        last = self.client.zrevrange(key, limit - 1, limit - 1, withscores=True)
        lowest = last[0][1] if last else "-inf"
        ids = [member.decode() for member in self.client.zrevrangebyscore(key, "+inf", lowest)]
        return sorted(self._entries(ids), key=lambda entry: entry.rank_key)[:limit]

    def entry(self, game_id: str) -> Entry | None:
        """The entry's hash."""
        return next(iter(self._entries([game_id])), None)

    def rank(self, entry: Entry) -> int:
        """The entries scoring more, counted in its set, and those tying with it read to
        order them by the time of entry."""
        key = DAY + entry.day if entry.day else ALL
        higher = self.client.zcount(key, f"({entry.score}", "+inf")
        tying = [member.decode() for member in
                 self.client.zrangebyscore(key, entry.score, entry.score)]
        earlier = sum(other.rank_key < entry.rank_key for other in self._entries(tying))
        return higher + earlier + 1

    def newest(self, limit: int) -> list[Entry]:
        """The back of ``records:entered``."""
        ids = [member.decode() for member in self.client.zrevrange(ENTERED, 0, limit - 1)]
        return self._entries(ids)

    def hide(self, game_id: str) -> bool:
        """Mark the entry hidden and take it out of the tables' sets (its day never changes)."""
        day = self.client.hget(ENTRY + game_id, "day")
        keys = [ENTRY + game_id, ALL, *([DAY + day.decode()] if day else [])]
        return self._hide(keys=keys, args=[game_id]) == 1

    def game(self, game_id: str) -> GameRecord | None:
        """The entry's frozen game."""
        return thawed_game(self.client.hget(ENTRY + game_id, "game"), game_id)

    def _entries(self, ids: list[str]) -> list[Entry]:
        """The entries of these games (in their order), in one round trip."""
        pipeline = self.client.pipeline(transaction=False)
        for game_id in ids:
            pipeline.hmget(ENTRY + game_id, _FIELDS)
        entries = []
        for game_id, values in zip(ids, pipeline.execute()):
            if None in values:
                continue
            name, score, best_tile, moves, day, entered, hidden = (v.decode() for v in values)
            entries.append(Entry(game_id, name, int(score), int(best_tile), int(moves),
                                 day or None, float(entered), hidden == "1"))
        return entries


def rename_untagged_keys(client: Redis | RedisCluster) -> None:
    """Give the table's keys from before the hash tag their names (one Redis server held them:
    a cluster never had them). ``records:entered``, which names every entry, goes last, so an
    upgrade cut short (or a server down at start-up: logged) is taken up at the next start."""
    try:
        _rename(client)
    except RedisError as error:
        log.warning("the records table's keys could not be checked for renaming (%s): %s",
                    address(client), fault_text(error))


def _rename(client: Redis | RedisCluster) -> None:
    if isinstance(client, RedisCluster) or not client.exists(UNTAGGED + "entered"):
        return
    ids = [member.decode() for member in client.zrange(UNTAGGED + "entered", 0, -1)]
    days = {day.decode() for day in (client.hget(f"{UNTAGGED}entry:{game_id}", "day")
                                     for game_id in ids) if day}
    names = [*(f"entry:{game_id}" for game_id in ids), "all",
             *(f"day:{day}" for day in sorted(days)), "entered"]
    for name in names:
        if client.exists(UNTAGGED + name):
            client.rename(UNTAGGED + name, TAG + name)
