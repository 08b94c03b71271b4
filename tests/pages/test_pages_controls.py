"""The controls table on the rules page lists exactly the keys and gestures the game's script handles."""

import json

import pytest
from flask_babel import force_locale

from tests.pages.pages_html import parse
from tests.pages.pages_site import LANGUAGES
from webapp.game import controls


def _script_bindings(client) -> dict:
    """The bindings the game page ships to its script."""
    block = next(node for node in parse(client.get("/").text).find_all("script")
                 if node.attrs.get("id") == "controls")
    return json.loads(block.text)


def _table_bindings(client, lang) -> tuple[dict[str, str], dict[str, str]]:
    """key -> row label and gesture -> row label, as the rules page renders them."""
    table = parse(client.get(f"/{lang}/rules").text).find("table", "controls-table")
    keys, gestures = {}, {}
    for row in table.find("tbody").find_all("tr"):
        label = row.find("th").text
        for node in row.find_all("kbd", "key"):
            assert node.attrs["data-key"] not in keys, "each key listed once"
            keys[node.attrs["data-key"]] = label
        for node in row.find_all(where=lambda n: "data-gesture" in n.attrs):
            gestures[node.attrs["data-gesture"]] = label
    return keys, gestures


@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_lists_exactly_the_scripts_keys_and_gestures(app, client, lang):
    shipped = _script_bindings(client)
    keys, gestures = _table_bindings(client, lang)
    assert set(keys) == set(shipped["keys"])
    assert set(gestures) == set(shipped["gestures"])

    with app.test_request_context(f"/{lang}/rules"), force_locale(lang):
        labels = {intent: str(label) for intent, label in controls.INTENT_LABELS.items()}
    assert keys == {key: labels[intent] for key, intent in shipped["keys"].items()}
    assert gestures == {gesture: labels[intent] for gesture, intent in shipped["gestures"].items()}
