"""A board that never moves: on phones from 320 to 430 px, in every language, the header keeps
its size while the score grows to six digits (and the best with it, and the assisted badge
appears), so a PerformanceObserver sees no layout shift at all; the action buttons keep one row
with nothing cut off; the replay's controls keep their places and Play turns into Pause."""

import pytest
from playwright.sync_api import Page, expect

from engine import Game
from tests.browser.browser_support import expect_number
from tests.history_support import play
from webapp.i18n import LANGUAGES

pytestmark = pytest.mark.browser

WIDTHS = [320, 360, 375, 390, 412, 430]
#: One merge of two 2s to the left: +4 points.
MERGE_LEFT = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]
#: Scores just below each new digit; the merge takes the score (and the best) past it.
BELOW_A_NEW_DIGIT = [996, 9_996, 99_996, 999_994]

POSITION = {"en": "Move {} of 12", "pl": "Ruch {} z 12", "ja": "12手中{}手目"}
PLAY = {"en": ("Play", "Pause"), "pl": ("Odtwórz", "Pauza"), "ja": ("再生", "一時停止")}
UNDO = {"en": "Undo", "pl": "Cofnij", "ja": "一手戻す"}
#: A button's label as a sighted player sees it: its text outside aria-hidden parts, unless a
#: part of it is clipped away (text only for screen readers).
SHOWN_LABEL = """(button) => {
    const parts = [...button.querySelectorAll("*")];
    if (parts.some((part) => getComputedStyle(part).clipPath !== "none")) return "";
    const hidden = parts.filter((part) => part.getAttribute("aria-hidden") === "true");
    return hidden.reduce((text, part) => text.replace(part.innerText, ""), button.innerText).trim();
}"""
#: Every layout shift from the page's start, whatever caused it (input or not).
RECORD_SHIFTS = """
window.layoutShifts = [];
new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
        window.layoutShifts.push({
            value: entry.value,
            sources: (entry.sources || []).map((source) =>
                source.node ? (source.node.id || source.node.className || source.node.nodeName) : "?"),
        });
    }
}).observe({ type: "layout-shift", buffered: true });
"""


def phone(new_context, width: int) -> Page:
    page = new_context(viewport={"width": width, "height": 740}, is_mobile=True,
                       has_touch=True).new_page()
    page.add_init_script(RECORD_SHIFTS)
    return page


def board_top(page: Page) -> float:
    return page.locator(".board-frame").bounding_box()["y"]


@pytest.mark.parametrize("width", WIDTHS)
def test_the_board_never_moves_while_the_score_grows_to_six_digits(server, new_context, width):
    for lang in LANGUAGES:
        page = phone(new_context, width)  # a browser of its own: no best score yet
        page.goto(f"{server.url}/{lang}/")
        sid = server.sid_of(page.context)
        top = board_top(page)
        for score in BELOW_A_NEW_DIGIT:
            server.store.update(sid, game=Game.from_rows(MERGE_LEFT, score=score, seed=1))
            page.keyboard.press("ArrowLeft")
            expect_number(page.locator("#score"), score + 4)
            expect_number(page.locator("#best"), score + 4)
        page.keyboard.press("u")  # help: the assisted badge joins the note
        expect(page.locator("#assisted")).to_be_visible()
        page.wait_for_timeout(700)  # past the last "+4" and pop, for any late shift to show
        shifts = page.evaluate("window.layoutShifts")
        assert shifts == [], f"{lang} at {width} px: {shifts}"
        assert board_top(page) == top


@pytest.mark.parametrize("width", WIDTHS)
def test_the_action_buttons_keep_one_row_in_every_language(server, new_context, width):
    page = phone(new_context, width)
    for lang in LANGUAGES:
        page.goto(f"{server.url}/{lang}/")
        buttons = page.locator(".game-actions .button")
        rows = {round(box["y"]) for box in (buttons.nth(i).bounding_box()
                                            for i in range(buttons.count()))}
        assert len(rows) == 1, f"{lang} at {width} px: the buttons wrap"
        assert page.evaluate("""() => [...document.querySelectorAll('.game-actions .button')]
            .filter((button) => button.scrollWidth > button.clientWidth).length""") == 0, \
            f"{lang} at {width} px: a label is cut off"
        assert page.locator("#undo-button").evaluate(SHOWN_LABEL) == UNDO[lang]


def control_boxes(page: Page) -> list[dict]:
    return [page.locator(".replay-controls .button").nth(i).bounding_box() for i in range(5)]


@pytest.mark.parametrize("width", [320, 360, 390, 430])
def test_the_replay_controls_keep_their_places_and_play_turns_into_pause(
        server, new_context, make_player, width):
    player = make_player(server.app.test_client())
    server.store.update(server.store.sid_of(player.client), game=Game.new(7))
    assert len(play(player, server.store, moves=12)) == 12
    for lang in LANGUAGES:
        page = phone(new_context, width)
        page.goto(f"{server.url}/{lang}/games/{player.game}?move=0")
        page.wait_for_load_state()  # the viewer's script is running
        places = control_boxes(page)
        for move in range(1, 13):
            page.locator("[data-step=next]").click()
            expect(page.locator("#replay-position")).to_contain_text(POSITION[lang].format(move))
            assert control_boxes(page) == places, f"{lang} at {width} px, move {move}"
        play_button = page.locator("#replay-play")
        assert play_button.evaluate("(button) => button.scrollWidth <= button.clientWidth")
        page.locator("[data-step=first]").click()
        expect(page.locator("#replay-position")).to_contain_text(POSITION[lang].format(0))
        play_button.click()
        expect(play_button).to_have_text(PLAY[lang][1])
        assert control_boxes(page) == places
        play_button.click()
        expect(play_button).to_have_text(PLAY[lang][0])
        assert page.evaluate("window.layoutShifts") == [], f"{lang} at {width} px"
