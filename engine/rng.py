"""Counter-based randomness: the n-th spawn of a game depends only on (seed, n).

The generator is splitmix64 evaluated at position n of the seed's sequence, so the whole random
state of a game is two integers, and replaying the same moves replays the same spawns.
"""

import secrets

SEED_LIMIT = 1 << 64
_MASK64 = SEED_LIMIT - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
#: What a new tile is, as (exponent, probability): a 2 nine times in ten, a 4 once in ten.
SPAWN_ODDS: tuple[tuple[int, float], ...] = ((1, 0.9), (2, 0.1))
# A 4 spawns when the low 32 bits fall below this: 429496730 / 2**32 = 0.1 + 1.4e-11.
_FOUR_BELOW = round(dict(SPAWN_ODDS)[2] * (1 << 32))


def new_seed() -> int:
    """A fresh random seed for a game started without one."""
    return secrets.randbits(64)


def spawn_choice(seed: int, counter: int, empty_count: int) -> tuple[int, int]:
    """Pick (index among the empty cells, exponent: 1 for a 2, 2 for a 4) for one spawn.

    The draw is the counter-th output of splitmix64 started at `seed`. Its high 32 bits choose
    the cell by multiply-shift (bias below 16 / 2**32), its low 32 bits the value.
    """
    z = (seed + (counter + 1) * _GOLDEN_GAMMA) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    draw = z ^ (z >> 31)
    return (draw >> 32) * empty_count >> 32, 2 if draw & 0xFFFFFFFF < _FOUR_BELOW else 1
