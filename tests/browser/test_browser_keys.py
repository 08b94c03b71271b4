"""Keys that never misfire: the physical key counts, whatever Caps Lock, the layout or an input
method make of it; a held key repeats its move through the queue like separate presses."""

from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browser_support import expect_number

pytestmark = pytest.mark.browser

SHIFT = 8  # the Shift bit of CDP's modifiers
# Letter keys as the browser reports them: (key, code, modifiers, what the press must do).
PRESSES = [
    ("H", "KeyH", 0, "left"),         # Caps Lock on: h still moves left...
    ("A", "KeyA", 0, "left"),         # ...and so does a
    ("W", "KeyW", 0, "up"),
    ("Process", "KeyW", 0, "up"),     # a Japanese input method is on
    ("z", "KeyW", 0, "up"),           # AZERTY: the key where QWERTY has W
    ("H", "KeyH", SHIFT, "hint"),     # Shift+H asks for a hint
    ("h", "KeyH", SHIFT, "hint"),     # Caps Lock and Shift: still the hint
]


def press(cdp, key: str, code: str, modifiers: int = 0, repeat: bool = False) -> None:
    """One key press as the browser delivers it (no text, so no input method gets it)."""
    event = {"key": key, "code": code, "modifiers": modifiers, "autoRepeat": repeat}
    cdp.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", **event})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **event})


@pytest.mark.parametrize("key, code, modifiers, intent", PRESSES)
def test_a_letter_does_what_its_physical_key_does(page: Page, open_game, key, code, modifiers,
                                                  intent):
    open_game(page)
    cdp = page.context.new_cdp_session(page)
    expected = "**/hint" if intent == "hint" else "**/move"
    with page.expect_request(expected) as request:
        press(cdp, key, code, modifiers)
    if intent != "hint":
        assert f"direction={intent}" in request.value.post_data
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "false")


def test_caps_lock_a_never_starts_auto_play_but_shift_a_does(page: Page, open_game):
    open_game(page)
    cdp = page.context.new_cdp_session(page)
    with page.expect_request("**/move"):
        press(cdp, "A", "KeyA")
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "false")
    with page.expect_request("**/solver-move"):
        press(cdp, "A", "KeyA", SHIFT)
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "true")
    press(cdp, "x", "KeyX")  # any other key stops it
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "false")


def test_a_held_key_repeats_its_move_in_order(page: Page, server, open_game):
    server.restart(post_delay=0.05)  # the repeats outrun the answers and wait in the queue
    sid = open_game(page, [[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 8, 0], [0, 0, 0, 16]], seed=9)
    expected = server.store.game(sid)
    sent, answered = [], []
    page.on("request", lambda request: sent.append(parse_qs(request.post_data))
            if request.url.endswith("/move") else None)
    page.on("response", lambda response: answered.append((response.status, response.headers["x-seq"]))
            if response.url.endswith("/move") else None)
    held = [("ArrowLeft", "left")] * 4 + [("ArrowUp", "up")] * 3
    for key, _direction in held:
        page.keyboard.down(key)  # the second and later downs of a key carry repeat: true
    page.keyboard.up("ArrowLeft")
    page.keyboard.up("ArrowUp")
    for _ in range(200):
        if (200, str(len(held))) in answered:
            break
        page.wait_for_timeout(50)
    for _key, direction in held:
        expected.move(direction)
    assert [status for status, _seq in answered] == [200] * len(sent)
    # Repeats made while a request is in flight go together in the next one, numbered on.
    assert [(direction, int(form["seq"][0]) + index) for form in sent
            for index, direction in enumerate(form["direction"])] == [
        (direction, seq) for seq, (_key, direction) in enumerate(held, 1)]
    assert server.store.game(sid).position == expected.position
    expect_number(page.locator("#moves"), expected.moves)
    expect_number(page.locator("#score"), expected.score)


def test_a_held_shift_h_asks_for_one_hint(page: Page, open_game):
    open_game(page)
    hints = []
    page.on("request", lambda request: hints.append(request) if request.url.endswith("/hint")
            else None)
    page.keyboard.down("Shift")
    with page.expect_response("**/hint"):
        for _ in range(4):
            page.keyboard.down("KeyH")  # the second and later downs carry repeat: true
    page.keyboard.up("KeyH")
    page.keyboard.up("Shift")
    expect(page.locator("#hint-arrow[data-direction]")).to_have_count(1)
    page.wait_for_timeout(300)  # time for a second request, were there one, to be sent
    assert len(hints) == 1


def test_a_held_shift_a_toggles_auto_play_once(page: Page, open_game):
    open_game(page)
    page.keyboard.down("Shift")
    for _ in range(4):
        page.keyboard.down("KeyA")
    page.keyboard.up("KeyA")
    page.keyboard.up("Shift")
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("x")
    expect(page.locator("#autoplay-button")).to_have_attribute("aria-pressed", "false")
