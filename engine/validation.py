"""Checks shared by every way a board or a score enters the engine; all raise ValueError."""

import operator
from collections.abc import Mapping, Set

from engine.rng import SEED_LIMIT

MAX_VALUE = 131072  # the largest tile a 4x4 board can hold
MAX_EXPONENT = MAX_VALUE.bit_length() - 1
WIN_EXPONENT = 11  # 2048

ExponentRows = tuple[tuple[int, ...], ...]


def integer(value: object, what: str) -> int:
    """`value` as an int; bools, floats, strings and the like are refused."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be an integer, not a bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{what} must be an integer, not {type(value).__name__}") from None


def fields(data: object, keys: Set[str], what: str) -> Mapping[str, object]:
    """`data` if it is a mapping with exactly these keys (the error names the missing and the
    unexpected ones)."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a {what} is a dict, not {type(data).__name__}")
    if data.keys() != keys:
        wrong = {"missing": keys - set(data), "unexpected": set(data) - keys}
        raise ValueError(f"{what} keys: " + "; ".join(
            f"{kind} {', '.join(sorted(map(repr, names)))}"
            for kind, names in wrong.items() if names))
    return data


def version(value: object, known: int, what: str) -> None:
    """Refuse a format version other than the one this code reads."""
    if integer(value, "version") != known:
        raise ValueError(f"unknown {what} version {value}")


def count(value: object, what: str) -> int:
    """A number of things: a non-negative int."""
    number = integer(value, what)
    if number < 0:
        raise ValueError(f"{what} must not be negative")
    return number


def items(value: object, what: str) -> tuple[object, ...]:
    """The items of a sequence; strings, mappings and sets are refused."""
    if isinstance(value, (str, bytes, bytearray, Mapping, Set)):
        raise ValueError(f"{what} must be a sequence, not {type(value).__name__}")
    try:
        return tuple(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{what} must be a sequence, not {type(value).__name__}") from None


def four_items(value: object, what: str) -> tuple[object, ...]:
    """The items of a sequence of exactly four."""
    result = items(value, what)
    if len(result) != 4:
        raise ValueError(f"{what} must have 4 items, not {len(result)}")
    return result


def exponent_of(value: object) -> int:
    """0 for an empty cell, n for a tile of value 2**n (2 <= 2**n <= 131072)."""
    number = integer(value, "a cell")
    if number == 0:
        return 0
    if not 2 <= number <= MAX_VALUE or number & (number - 1):
        raise ValueError(f"a cell must be 0 or a power of two from 2 to {MAX_VALUE}, not {number}")
    return number.bit_length() - 1


def exponent_rows(rows: object) -> ExponentRows:
    """Rows of tile values (4 sequences of 4 ints) as rows of exponents.

    Refuses a board with two 131072 tiles: no game can hold both, and merging them would leave
    the range of tile values.
    """
    result = tuple(
        tuple(exponent_of(value) for value in four_items(row, "a row"))
        for row in four_items(rows, "rows")
    )
    check_exponents(result)
    return result


def check_exponents(rows: ExponentRows) -> None:
    """Every cell an exponent from 0 to MAX_EXPONENT, and at most one MAX_EXPONENT (see
    `exponent_rows`)."""
    if max(map(max, rows)) > MAX_EXPONENT:
        raise ValueError(f"a tile cannot be above {MAX_VALUE}")
    if sum(row.count(MAX_EXPONENT) for row in rows) > 1:
        raise ValueError(f"a board holds at most one {MAX_VALUE} tile")


def check_playable(rows: ExponentRows) -> None:
    """A game always has at least two tiles on the board."""
    if sum(1 for row in rows for exponent in row if exponent) < 2:
        raise ValueError("a game has at least two tiles on the board")


def score(value: object, what: str = "score") -> int:
    """A score (or points of one): a non-negative even int (every merge adds an even value)."""
    number = integer(value, what)
    if number < 0 or number % 2:
        raise ValueError(f"{what} must be a non-negative even integer, not {number}")
    return number


def flag(value: object, what: str) -> bool:
    """A yes or no: true or false, not 0 or 1."""
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false")
    return value


def seed(value: object) -> int:
    """A seed: an int from 0 to 2**64 - 1."""
    number = integer(value, "seed")
    if not 0 <= number < SEED_LIMIT:
        raise ValueError(f"seed must be from 0 to 2**64 - 1, not {number}")
    return number
