"""The game's controls, defined once: the page's script and the rules page both read them.

Keys are matched by ``KeyboardEvent.key``. Lower-case letters move (WASD and vim's hjkl); the
capital letters (Shift+H, Shift+A) ask for a hint and toggle auto-play, so they never clash with
the ``h`` and ``a`` moves.
"""

from flask_babel import lazy_gettext

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


DIRECTION_NAMES = {
    "up": lazy_gettext("up"),
    "down": lazy_gettext("down"),
    "left": lazy_gettext("left"),
    "right": lazy_gettext("right"),
}


def client_data() -> dict:
    """What the page's script needs, rendered as a JSON data block."""
    return {"keys": KEYS, "gestures": GESTURES, "swipeMinDistance": SWIPE_MIN_DISTANCE_PX}


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
