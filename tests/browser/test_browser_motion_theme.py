"""The page honours the reader's settings, emulated in Chromium: with reduced motion nothing on it
slides, pops or fades (every computed transition and animation is gone); the dark colour scheme
applies the dark palette, and in either scheme every text on the page, tiles included, keeps a
readable contrast (WCAG AA: 4.5:1, 3:1 for large text) against what it is drawn on."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

#: A slide, a merge and a new tile in one move (left), and an 8 sliding from the far edge.
MOVING = [[0, 0, 0, 8], [0] * 4, [0, 0, 2, 2], [0] * 4]
AA_TEXT, AA_LARGE_TEXT = 4.5, 3.0

#: Every element's computed transition and animation, right after a move.
MOTION = """() => [...document.querySelectorAll("*")].map((element) => {
    const style = getComputedStyle(element);
    return {
        element: `${element.tagName.toLowerCase()}#${element.id}.${element.className}`,
        transitions: style.transitionDuration.split(",").map((d) => parseFloat(d) || 0),
        animation: style.animationName,
    };
})"""

#: Colour arithmetic in the page: each visible text's colour and the colour under it (its
#: ancestors' backgrounds, composited from the page down), as WCAG relative luminances.
TEXT_CONTRAST = """(skip) => {
    const channels = (text) => {
        const rgb = text.match(/^rgba?\\(([^)]+)\\)$/);
        const srgb = text.match(/^color\\(srgb ([^)]+)\\)$/);
        const parts = (rgb || srgb)[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
        const scale = srgb ? 255 : 1;
        return [parts[0] * scale, parts[1] * scale, parts[2] * scale, parts[3] ?? 1];
    };
    const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
    const behind = (element) => {
        const layers = [];
        for (let node = element; node; node = node.parentElement) {
            layers.unshift(channels(getComputedStyle(node).backgroundColor));
        }
        return layers.reduce((below, layer) => over(layer, below), [255, 255, 255, 1]);
    };
    const luminance = (colour) => {
        const [r, g, b] = colour.slice(0, 3).map((value) => {
            const c = value / 255;
            return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const texts = [];
    for (const element of document.body.querySelectorAll("*")) {
        const own = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
            .map((node) => node.textContent).join("").trim();
        const box = element.getBoundingClientRect();
        if (!own || box.width < 2 || box.height < 2 || element.matches(skip)) continue;
        if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
        const style = getComputedStyle(element);
        const background = behind(element);
        const size = parseFloat(style.fontSize);
        texts.push({
            text: own.slice(0, 40),
            ink: luminance(over(channels(style.color), background)),
            background: luminance(background),
            large: size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700),
        });
    }
    return texts;
}"""
#: Not checked: decorative marks hidden from readers (the hint's big arrow).
NOT_PAGE_TEXT = "[aria-hidden='true'], [aria-hidden='true'] *"


def contrast(first: float, second: float) -> float:
    lighter, darker = max(first, second), min(first, second)
    return (lighter + 0.05) / (darker + 0.05)


def make_a_move(page: Page, open_game) -> None:
    open_game(page, MOVING, seed=3)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#moves")).to_have_text("1")


def moving_parts(page: Page) -> tuple[list[str], list[str]]:
    """The elements that transition, and those that animate."""
    styles = page.evaluate(MOTION)
    return ([style["element"] for style in styles if any(style["transitions"])],
            [style["element"] for style in styles if style["animation"] != "none"])


def test_without_a_preference_tiles_slide_and_pop(page: Page, open_game):
    """The control for the test below: the same move does set transitions and animations."""
    page.emulate_media(reduced_motion="no-preference")
    make_a_move(page, open_game)
    transitioning, animating = moving_parts(page)
    assert any("tile" in element for element in transitioning)
    assert any("tile" in element for element in animating)


def test_with_reduced_motion_nothing_moves(page: Page, open_game):
    page.emulate_media(reduced_motion="reduce")
    make_a_move(page, open_game)
    assert moving_parts(page) == ([], [])
    expect(page.locator("#board [data-leaving]")).to_have_count(0)  # merged tiles go at once
    expect(page.locator("#board [data-value='4'][data-row='2'][data-col='0']")).to_have_count(1)


def page_colours(page: Page) -> tuple[float, float]:
    """The luminance of the page's background and of its body text."""
    texts = page.evaluate(TEXT_CONTRAST, NOT_PAGE_TEXT)
    heading = next(text for text in texts if text["text"] == "2048")
    return heading["background"], heading["ink"]


def test_the_colour_scheme_switches_the_palette(page: Page, open_game):
    open_game(page)
    page.emulate_media(color_scheme="light")
    light_page, light_ink = page_colours(page)
    page.emulate_media(color_scheme="dark")
    dark_page, dark_ink = page_colours(page)
    assert light_page > 0.8 and light_ink < 0.1
    assert dark_page < 0.05 and dark_ink > 0.6


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_in_either_scheme_every_text_is_readable(page: Page, open_game, scheme):
    page.emulate_media(color_scheme=scheme)
    make_a_move(page, open_game)
    page.locator("#hint-button").click()
    # A hint is a search on the test server: on a loaded machine its answer came after 5 s.
    expect(page.locator("#hint-values li").first).to_be_visible(timeout=30_000)
    texts = page.evaluate(TEXT_CONTRAST, NOT_PAGE_TEXT)
    assert {"2048", "Score", "Best without help:", "Hint"} <= {text["text"] for text in texts}
    unreadable = [(text["text"], round(contrast(text["ink"], text["background"]), 2))
                  for text in texts
                  if contrast(text["ink"], text["background"])
                  < (AA_LARGE_TEXT if text["large"] else AA_TEXT)]
    assert unreadable == []
