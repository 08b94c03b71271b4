"""The four directions a player can push the tiles, and the check every entry point uses."""

DIRECTIONS: tuple[str, ...] = ("up", "down", "left", "right")


def check_direction(direction: object) -> str:
    """`direction` if it is one of DIRECTIONS; TypeError for a non-string, else ValueError."""
    if not isinstance(direction, str):
        raise TypeError(f"direction must be a string, not {type(direction).__name__}")
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r}; expected one of {DIRECTIONS}")
    return direction
