"""What a tile is worth: the score only grows by merges, each adding the tile it makes."""

from engine.validation import MAX_VALUE

#: Every value a tile can hold, from 2 to the largest a 4x4 board allows.
TILE_VALUES = tuple(1 << exponent for exponent in range(1, MAX_VALUE.bit_length()))


def merge_points(value: int) -> int:
    """Points scored by the merges that build a tile of `value` from 2s alone.

    A tile of 2**k takes two tiles of 2**(k-1), each built the same way: (k - 1) * 2**k in all.
    A tile that spawns as a 4 saves one merge, so real games score a little less.

    >>> merge_points(2), merge_points(4), merge_points(2048)
    (0, 4, 20480)
    """
    if value not in TILE_VALUES:
        raise ValueError(f"not a tile value: {value!r}")
    return (value.bit_length() - 2) * value
