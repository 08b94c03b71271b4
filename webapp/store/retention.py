"""How long the store keeps what it keeps, and what goes first when it is full.

Games and sessions alike: one that was played (a move made) lives SESSION_LIFETIME_DAYS after
it was last played, and every move pushes that further; one never played lives an hour.

The store holds at most SESSION_STORE_MAX_ENTRIES of each, plus a tenth as many unplayed ones
on top. A played entry that arrives in a full store pushes out the unplayed first, then the
least recently played; an unplayed one only ever pushes out the oldest unplayed. So a crowd of
visitors who never move cannot push out a player, and a full store still lets newcomers start.
Each write removes a bounded batch, never scanning the store.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Seconds an unplayed game (or the session of a visitor who never moved) is kept.
UNPLAYED_LIFETIME = 3600.0
#: Most entries removed by one write: eviction and expiry never hold a request up for long.
BATCH = 16


@dataclass(frozen=True)
class Retention:
    """The store's keeping rules, from the app's configuration."""

    played_lifetime: float  # seconds
    max_entries: int

    @property
    def unplayed_quota(self) -> int:
        """Unplayed entries kept at most, on top of max_entries."""
        return max(self.max_entries // 10, 1)

    def lifetime(self, played: bool) -> float:
        """Seconds an entry lives after it was last played (or made, if never played)."""
        return self.played_lifetime if played else UNPLAYED_LIFETIME

    def expires(self, played: bool, last_active: float) -> float:
        """When an entry last active at `last_active` expires (a Unix time)."""
        return last_active + self.lifetime(played)
