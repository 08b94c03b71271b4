"""How long the store keeps what it keeps, and what goes first when it is full.

Games and sessions alike: one that was played (a move made) lives SESSION_LIFETIME_DAYS after
it was last played, and every move pushes that further; one never played lives an hour. A
session is played from its first move on, and its games' moves are its own: each move renews
the session together with the game, in the same write, so a session lives exactly as long as
the games it leads to.

Played and unplayed entries are kept in two separate pools. The played: at most
SESSION_STORE_MAX_ENTRIES of each kind (games, sessions); a played entry arriving in a full pool
(a first move, a new game of a player) pushes out the least recently played. The unplayed come on
top of that: a tenth as many, and an unplayed arrival in a full pool pushes out the oldest
unplayed, but never one younger than FAIR_CHANCE: a newcomer always gets ten minutes to make a
first move (the pool then grows past its tenth for those minutes). So a crowd of visitors who
never move cannot push out a player, a crowd of players cannot push out a newcomer, and a full
store still lets newcomers start. Each write removes a bounded batch, never scanning the store.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Seconds an unplayed game (or the session of a visitor who never moved) is kept.
UNPLAYED_LIFETIME = 3600.0
#: Seconds a newcomer's unplayed game and session are kept whatever the store holds.
FAIR_CHANCE = 600.0
#: Most entries removed by one write: eviction and expiry never hold a request up for long.
BATCH = 16


@dataclass(frozen=True)
class Retention:
    """The store's keeping rules, from the app's configuration."""

    played_lifetime: float  # seconds
    max_entries: int

    @property
    def unplayed_quota(self) -> int:
        """Unplayed entries kept, on top of max_entries, once they are FAIR_CHANCE old."""
        return max(self.max_entries // 10, 1)

    def lifetime(self, played: bool) -> float:
        """Seconds an entry lives after it was last played (or made, if never played)."""
        return self.played_lifetime if played else UNPLAYED_LIFETIME

    def expires(self, played: bool, last_active: float) -> float:
        """When an entry last active at `last_active` expires (a Unix time)."""
        return last_active + self.lifetime(played)
