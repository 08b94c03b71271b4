"""The key bindings are defined once and rendered into the page for the script."""

import json
import re

import engine
from webapp.game import controls


def test_page_carries_the_bindings_as_a_data_block(client):
    page = client.get("/").text
    block = re.search(r'<script type="application/json" id="controls">(.*?)</script>', page, re.S)
    assert json.loads(block.group(1)) == controls.client_data()


def test_every_move_has_arrow_wasd_and_vim_keys():
    for keys, intent in ((("ArrowUp", "w", "k"), "up"), (("ArrowDown", "s", "j"), "down"),
                         (("ArrowLeft", "a", "h"), "left"), (("ArrowRight", "d", "l"), "right")):
        assert all(controls.KEYS[key] == intent for key in keys)


def test_reference_table_lists_every_intent():
    labels = [label for label, _keys, _gestures in controls.reference_table()]
    assert len(labels) == len(controls.INTENT_LABELS)


def test_every_engine_direction_has_its_arrow_and_name_in_order():
    assert tuple(controls.SHOWN_DIRECTIONS) == engine.DIRECTIONS
    assert [shown.arrow for shown in controls.SHOWN_DIRECTIONS.values()] == ["↑", "↓", "←", "→"]
    assert controls.client_data()["directions"] == list(engine.DIRECTIONS)
