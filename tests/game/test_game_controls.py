"""The key bindings are defined once and rendered into the page for the script."""

import json
import re

import pytest

import engine
from webapp.game import controls
from webapp.i18n import LANGUAGES


def test_page_carries_the_bindings_as_a_data_block(client):
    page = client.get("/").text
    block = re.search(r'<script type="application/json" id="controls">(.*?)</script>', page, re.S)
    assert json.loads(block.group(1)) == controls.client_data()


def test_every_move_has_arrow_wasd_and_vim_keys():
    for keys, intent in ((("ArrowUp", "KeyW", "KeyK"), "up"),
                         (("ArrowDown", "KeyS", "KeyJ"), "down"),
                         (("ArrowLeft", "KeyA", "KeyH"), "left"),
                         (("ArrowRight", "KeyD", "KeyL"), "right")):
        assert all(controls.KEYS[key] == intent for key in keys)


def test_reference_table_lists_every_intent_with_its_keys_and_gestures(app):
    with app.test_request_context():
        table = [(label, [cap.caps for cap in caps],
                  [(gesture, str(name)) for gesture, name in gestures])
                 for label, caps, gestures in controls.reference_table()]
    assert table == [
        ("Move up", [("↑",), ("W",), ("K",)], [("swipe-up", "swipe up")]),
        ("Move down", [("↓",), ("S",), ("J",)], [("swipe-down", "swipe down")]),
        ("Move left", [("←",), ("A",), ("H",)], [("swipe-left", "swipe left")]),
        ("Move right", [("→",), ("D",), ("L",)], [("swipe-right", "swipe right")]),
        ("Take back the last move", [("U",), ("Ctrl", "Z")], []),
        ("Show a hint", [("Shift", "H")], []),
        ("Start or stop auto-play", [("Shift", "A")], []),
    ]


def test_the_script_gets_each_gesture_s_intent():
    assert controls.client_data()["gestures"] == {
        "swipe-up": "up", "swipe-down": "down", "swipe-left": "left", "swipe-right": "right"}


def test_every_engine_direction_has_its_arrow_and_name_in_order():
    assert tuple(controls.SHOWN_DIRECTIONS) == engine.DIRECTIONS
    assert [shown.arrow for shown in controls.SHOWN_DIRECTIONS.values()] == ["↑", "↓", "←", "→"]
    assert controls.client_data()["directions"] == list(engine.DIRECTIONS)


def test_the_numbered_intents_are_the_moves_undo_and_the_solver_s_move():
    assert controls.client_data()["numbered"] == [*engine.DIRECTIONS, "undo", "solver-move"]
    assert {controls.KEYS["KeyU"], controls.KEYS[controls.CTRL + "KeyZ"]} == {"undo"}


def test_the_buttons_name_their_keys_as_bound(client):
    page = client.get("/").text
    undo = re.search(r'<button[^>]*id="undo-button"[^>]*>', page).group(0)
    assert 'aria-keyshortcuts="U Control+Z"' in undo and 'title="Undo (U, Ctrl+Z)"' in undo
    assert re.search(r'id="hint-button"[^>]*aria-keyshortcuts="Shift\+H"', page)
    assert re.search(r'id="autoplay-button"[^>]*aria-keyshortcuts="Shift\+A"', page)


#: A key cap named in prose: a run of capitals (WASD, a lone U) not inside a word, or a
#: modifier with its key (Shift+H).
NAMED_KEYS = re.compile(r"(?<![A-Za-z+])(?:(?:Shift|Ctrl)\+[A-Z]|[A-Z]+)(?![A-Za-z+])")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_how_to_sentence_names_exactly_the_bound_keys(client, lang):
    """The how-to under the board is translated prose, not rendered from KEYS: it must still
    name every letter binding and nothing else, in every language."""
    page = client.get(f"/{lang}/").text
    how_to = re.search(r'<p class="how-to">(.*?)</p>', page, re.S).group(1)
    named = set()
    for found in NAMED_KEYS.findall(how_to):
        named |= {found} if "+" in found else set(found)
    bound = {"+".join(controls.key_cap(binding).caps) for binding in controls.KEYS
             if not binding.removeprefix(controls.SHIFT).startswith("Arrow")}
    assert named == bound
