"""The win banner, the game-over overlay, the hint arrow and the confirm dialog, in the light and
the dark theme, on a phone and a desktop: each readable, inside the board or the screen, and
photographed to test-artifacts/."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browser_support import animations_done, phone_device, settle

pytestmark = pytest.mark.browser

NEAR_WIN = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0]]
NEAR_LOSS = [[128, 16, 4, 128], [64, 128, 64, 16], [128, 32, 8, 4], [8, 128, 16, 0]]  # seed 5
IN_PROGRESS = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 0, 0], [0, 2, 0, 4]]

# The contrast of an element's text over its own background, composited over what lies beneath.
TEXT_CONTRAST = """([text, surface, beneath]) => {
    const channels = (colour) => colour.match(/[\\d.]+/g).map(Number);
    const [r, g, b, a = 1] = channels(getComputedStyle(surface).backgroundColor);
    const under = channels(getComputedStyle(beneath).backgroundColor);
    const seen = [r, g, b].map((c, i) => a * c + (1 - a) * under[i]);
    const luminance = (rgb) => rgb.map((c) => c / 255)
        .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
        .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
    const ink = luminance(channels(getComputedStyle(text).color).slice(0, 3));
    const back = luminance(seen);
    return (Math.max(ink, back) + 0.05) / (Math.min(ink, back) + 0.05);
}"""


def readable(page: Page, text: str, surface: str, beneath: str) -> float:
    handles = [page.locator(selector).first.element_handle() for selector in (text, surface, beneath)]
    return page.evaluate(TEXT_CONTRAST, handles)


def inside(inner: dict, outer: dict) -> bool:
    return (outer["x"] - 1 <= inner["x"] and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
            and outer["y"] - 1 <= inner["y"] and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1)


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_banners_overlays_hint_and_dialog_look_right(new_context, playwright, open_game, artifacts,
                                                    scheme, size):
    device = phone_device(playwright) if size == "phone" else {"viewport": {"width": 1280, "height": 900}}
    page = new_context(**device, color_scheme=scheme).new_page()
    name = f"{scheme}-{size}"

    open_game(page, NEAR_WIN, seed=7)
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".overlay-won")).to_be_visible()
    animations_done(page)  # the banner's fade-in
    assert inside(page.locator(".overlay-won .overlay-actions").bounding_box(),
                  page.locator(".board-frame").bounding_box())
    assert readable(page, ".overlay-won h2", ".overlay-won", ".board-frame") >= 4.5
    page.screenshot(path=artifacts / f"overlay-won-{name}.png")

    open_game(page, NEAR_LOSS, seed=5)
    page.keyboard.press("ArrowRight")
    expect(page.locator(".overlay-over")).to_be_visible()
    animations_done(page)
    assert inside(page.locator(".overlay-over .overlay-actions").bounding_box(),
                  page.locator(".board-frame").bounding_box())
    assert readable(page, ".overlay-over p", ".overlay-over", ".board-frame") >= 4.5
    page.screenshot(path=artifacts / f"overlay-over-{name}.png")

    open_game(page, IN_PROGRESS, seed=1)
    page.locator("#hint-button").click()
    arrow = page.locator("#hint-arrow[data-direction]")
    expect(arrow).to_have_count(1)
    expect(arrow).to_be_visible()
    assert inside(arrow.bounding_box(), page.locator(".board-frame").bounding_box())
    # An outline over a faint fill: the numbers of the tiles under it stay readable.
    fill_alpha, stroke = arrow.evaluate(
        "arrow => { const style = getComputedStyle(arrow), parts = style.color.match(/[\\d.]+/g);"
        " const alpha = /rgba|\\//.test(style.color) ? parseFloat(parts.at(-1)) : 1;"
        " return [alpha, parseFloat(style.webkitTextStrokeWidth)]; }")
    assert fill_alpha <= 0.15 and stroke > 0
    animations_done(page)  # the arrow's fade-in
    page.screenshot(path=artifacts / f"hint-{name}.png", full_page=True)

    page.keyboard.press("ArrowLeft")
    expect(page.locator("#moves")).not_to_have_text("0")
    settle(page)
    page.locator("#new-game").click()
    dialog = page.locator("#confirm-new")
    expect(dialog).to_be_visible()
    assert inside(dialog.bounding_box(), {"x": 0, "y": 0, **page.viewport_size})
    assert readable(page, "#confirm-new p", "#confirm-new", "#confirm-new") >= 4.5
    page.screenshot(path=artifacts / f"dialog-{name}.png")
    dialog.locator("button[value='cancel']").click()
    expect(dialog).not_to_be_visible()
