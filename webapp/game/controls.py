"""The game's controls, defined once: the page's script and the rules page both read them.

Keys are matched by ``KeyboardEvent.key``. Lower-case letters move (WASD and vim's hjkl); the
capital letters (Shift+H, Shift+A) ask for a hint and toggle auto-play, so they never clash with
the ``h`` and ``a`` moves. The four directions are the engine's; here they get the arrow and the
name a player sees, wherever a direction is shown (hint, example boards, announcements).
"""

from dataclasses import dataclass

from flask_babel import LazyString, lazy_gettext

from engine import DIRECTIONS


@dataclass(frozen=True)
class ShownDirection:
    """How a direction is shown: its arrow and its name in the reader's language."""

    arrow: str
    name: LazyString


#: One entry per engine direction, in the engine's order (a test holds them to engine.DIRECTIONS).
SHOWN_DIRECTIONS: dict[str, ShownDirection] = {
    "up": ShownDirection("↑", lazy_gettext("up")),
    "down": ShownDirection("↓", lazy_gettext("down")),
    "left": ShownDirection("←", lazy_gettext("left")),
    "right": ShownDirection("→", lazy_gettext("right")),
}

KEYS: dict[str, str] = {
    "ArrowUp": "up", "ArrowDown": "down", "ArrowLeft": "left", "ArrowRight": "right",
    "w": "up", "s": "down", "a": "left", "d": "right",
    "k": "up", "j": "down", "h": "left", "l": "right",
    "H": "hint",
    "A": "autoplay",
}

GESTURES: dict[str, str] = {
    "swipe-up": "up", "swipe-down": "down", "swipe-left": "left", "swipe-right": "right",
}

SWIPE_MIN_DISTANCE_PX = 24

INTENT_LABELS = {
    "up": lazy_gettext("Move up"),
    "down": lazy_gettext("Move down"),
    "left": lazy_gettext("Move left"),
    "right": lazy_gettext("Move right"),
    "hint": lazy_gettext("Show a hint"),
    "autoplay": lazy_gettext("Start or stop auto-play"),
}


def client_data() -> dict:
    """What the page's script needs, rendered as a JSON data block."""
    return {
        "directions": list(DIRECTIONS),
        "keys": KEYS,
        "gestures": GESTURES,
        "swipeMinDistance": SWIPE_MIN_DISTANCE_PX,
    }


def reference_table() -> list[tuple[str, list[str], list[str]]]:
    """Rows of (label, keys, gestures) for a human-readable controls table."""
    return [
        (
            str(label),
            [key for key, bound in KEYS.items() if bound == intent],
            [gesture for gesture, bound in GESTURES.items() if bound == intent],
        )
        for intent, label in INTENT_LABELS.items()
    ]
