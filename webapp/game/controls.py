"""The game's controls, defined once: the page's script, the buttons' key hints (through
`webapp.game.view`) and the rules page all read them (only the how-to sentence under the board
names the keys in translated prose).

Keys are matched by ``KeyboardEvent.code``, the physical key, so Caps Lock, the keyboard layout
and an input method change nothing. Letters move (WASD and vim's hjkl, with or without Shift);
only Shift+H and Shift+A ask for a hint and toggle auto-play, so they never clash with the ``h``
and ``a`` moves; ``u`` (free beside hjkl) and Ctrl+Z take back the last move. The four
directions are the engine's; here they get the arrow and the name a player sees, wherever a
direction is shown (hint, example boards, announcements).
"""

from dataclasses import dataclass

from flask_babel import LazyString

from engine import DIRECTIONS
from webapp.game import best_score
from webapp.game.intents import MAX_MOVES
from webapp.i18n import lazy_gettext


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

#: Key (``KeyboardEvent.code``, with ``Shift+`` or ``Ctrl+`` when it counts only with that
#: modifier held) -> intent.
KEYS: dict[str, str] = {
    "ArrowUp": "up", "ArrowDown": "down", "ArrowLeft": "left", "ArrowRight": "right",
    "KeyW": "up", "KeyS": "down", "KeyA": "left", "KeyD": "right",
    "KeyK": "up", "KeyJ": "down", "KeyH": "left", "KeyL": "right",
    "Shift+KeyH": "hint",
    "Shift+KeyA": "autoplay",
    "KeyU": "undo",
    "Ctrl+KeyZ": "undo",
}
SHIFT, CTRL = "Shift+", "Ctrl+"
#: Auto-play's speeds in moves a second: the slider's range and where it starts until the player
#: moves it (the page keeps the player's choice). The solver's default budget
#: (`webapp.config`, SOLVER_RATE_LIMIT) leaves room for the top speed.
AUTOPLAY_SPEEDS = {"min": 1, "max": 10, "start": 4}
#: The intents that carry the page's move number (``seq``): each is applied once, in order.
#: "solver-move" is auto-play's: the server plays the solver's choice.
NUMBERED: tuple[str, ...] = (*DIRECTIONS, "undo", "solver-move")


@dataclass(frozen=True)
class Gesture:
    """What a gesture on a touch screen sends, and its name in the reader's language."""

    intent: str
    name: LazyString


GESTURES: dict[str, Gesture] = {
    "swipe-up": Gesture("up", lazy_gettext("swipe up")),
    "swipe-down": Gesture("down", lazy_gettext("swipe down")),
    "swipe-left": Gesture("left", lazy_gettext("swipe left")),
    "swipe-right": Gesture("right", lazy_gettext("swipe right")),
}

SWIPE_MIN_DISTANCE_PX = 24

INTENT_LABELS = {
    "up": lazy_gettext("Move up"),
    "down": lazy_gettext("Move down"),
    "left": lazy_gettext("Move left"),
    "right": lazy_gettext("Move right"),
    "undo": lazy_gettext("Take back the last move"),
    "hint": lazy_gettext("Show a hint"),
    "autoplay": lazy_gettext("Start or stop auto-play"),
}


def client_data(daily: bool = False) -> dict:
    """What the page's script needs, rendered as a JSON data block (on a `daily` game's page,
    the daily games' bests)."""
    return {
        "directions": list(DIRECTIONS),
        "numbered": list(NUMBERED),
        "keys": KEYS,
        "shiftPrefix": SHIFT,
        "ctrlPrefix": CTRL,
        "gestures": {gesture: shown.intent for gesture, shown in GESTURES.items()},
        "swipeMinDistance": SWIPE_MIN_DISTANCE_PX,
        "maxMoves": MAX_MOVES,
        "autoplaySpeeds": AUTOPLAY_SPEEDS,
        "bestScores": best_score.client_data(daily),
    }


@dataclass(frozen=True)
class KeyCap:
    """A binding as printed on the keyboard: ``Shift+KeyH`` is the caps ``("Shift", "H")``,
    ``Ctrl+KeyZ`` the caps ``("Ctrl", "Z")``."""

    binding: str
    caps: tuple[str, ...]


def key_cap(binding: str) -> KeyCap:
    """The caps a player presses for a binding of KEYS."""
    modifier = next((prefix for prefix in (SHIFT, CTRL) if binding.startswith(prefix)), "")
    code = binding.removeprefix(modifier)
    if code.startswith("Arrow"):  # an arrow key shows the arrow of the direction it moves
        cap = SHOWN_DIRECTIONS[KEYS[code]].arrow
    else:
        cap = code.removeprefix("Key")
    return KeyCap(binding, (modifier.removesuffix("+"), cap) if modifier else (cap,))


def bindings_of(intent: str) -> list[str]:
    """The bindings of KEYS that send `intent`, in KEYS' order."""
    return [binding for binding, bound in KEYS.items() if bound == intent]


def aria_shortcuts(intent: str) -> str:
    """An ``aria-keyshortcuts`` value for a button sending `intent` (``U Control+Z``)."""
    return " ".join(binding.replace(CTRL, "Control+").replace("Key", "")
                    for binding in bindings_of(intent))


def shown_shortcuts(intent: str) -> str:
    """The keys for `intent` as a tooltip names them (``U, Ctrl+Z``)."""
    return ", ".join("+".join(key_cap(binding).caps) for binding in bindings_of(intent))


def reference_table() -> list[tuple[str, list[KeyCap], list[tuple[str, LazyString]]]]:
    """Rows of (label, key caps, gestures as (gesture, name)) for a human-readable controls
    table."""
    return [
        (
            str(label),
            [key_cap(binding) for binding in bindings_of(intent)],
            [(gesture, shown.name) for gesture, shown in GESTURES.items() if shown.intent == intent],
        )
        for intent, label in INTENT_LABELS.items()
    ]
