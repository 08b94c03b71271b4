"""The first screen: on a small phone the whole board is visible without scrolling, in every
language; title and scores share a row; on a desktop the navigation sits in the content column;
every control wears the game's colours. Screenshots go to test-artifacts/."""

import pytest
from playwright.sync_api import expect

from webapp.i18n import LANGUAGES

pytestmark = pytest.mark.browser

PHONES = [(360, 568), (375, 667), (412, 915)]


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found, selector
    return found


@pytest.mark.parametrize("width, height", PHONES, ids=lambda size: str(size))
def test_the_whole_board_is_on_a_phones_first_screen(server, new_context, artifacts, width, height):
    page = new_context(viewport={"width": width, "height": height}, is_mobile=True,
                       has_touch=True).new_page()
    seen = []
    for lang in LANGUAGES:
        page.goto(f"{server.url}/{lang}/")
        board, title, score = box(page, ".board-frame"), box(page, "#game-title"), box(page, ".score-box")
        bottom = board["y"] + board["height"]
        seen.append(f"{width}x{height} {lang}: board {board['y']:.0f}-{bottom:.0f} px")
        page.screenshot(path=artifacts / f"first-screen-{width}x{height}-{lang}.png")
        assert bottom <= height, seen[-1]
        assert page.evaluate("() => [window.scrollY, document.documentElement.scrollWidth]") == [0, width]
        assert score["y"] < title["y"] + title["height"] and title["y"] < score["y"] + score["height"], \
            "title and scores share a row"
        buttons = page.locator(".game-actions .button")
        assert len({round(buttons.nth(i).bounding_box()["y"]) for i in range(buttons.count())}) == 1, \
            "the action buttons share a row"
    (artifacts / f"first-screen-{width}x{height}.txt").write_text("\n".join(seen) + "\n")


def test_on_a_desktop_the_navigation_sits_in_the_content_column(page, server, artifacts):
    page.set_viewport_size({"width": 1280, "height": 900})
    for path, column in (("/en/", ".board-frame"), ("/en/rules", ".page-article")):
        page.goto(server.url + path)
        nav, content = box(page, ".site-nav"), box(page, column)
        assert abs(nav["x"] - content["x"]) <= 1, (path, nav, content)
    page.goto(server.url + "/pl/")
    page.screenshot(path=artifacts / "first-screen-desktop-pl.png")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_control_wears_the_games_colours(server, new_context, scheme):
    page = new_context(color_scheme=scheme).new_page()
    page.goto(server.url)
    colours = page.evaluate("""() => {
        const resolved = (value) => {
            const probe = document.createElement("span");
            probe.style.color = value;
            document.body.append(probe);
            const colour = getComputedStyle(probe).color;
            probe.remove();
            return colour;
        };
        const style = (selector) => getComputedStyle(document.querySelector(selector));
        return {
            slider: style("#autoplay-speed").accentColor, accent: resolved("var(--accent)"),
            button: style("#new-game").backgroundColor, panel: resolved("var(--panel)"),
            link: style(".site-nav a").color,
        };
    }""")
    assert colours["slider"] == colours["accent"] == colours["link"]
    assert colours["button"] == colours["panel"]
    expect(page.locator("#autoplay-speed")).to_be_visible()


# WCAG 2.2's target size (minimum), as Lighthouse checks it: a control is at least 24 px each
# way, or a circle of 24 px across on its centre meets no other control and no such circle of
# another small one. Links inside running text are exempt.
UNDERSIZED_TARGETS = """() => {
    const targets = [...document.querySelectorAll("a, button, input, select")]
        .filter((target) => target.checkVisibility() && !target.closest("p"))
        .map((target) => ({ name: target.id || target.textContent.trim(),
                            box: target.getBoundingClientRect() }));
    const small = ({ box }) => box.width < 24 || box.height < 24;
    const centre = ({ box }) => [box.x + box.width / 2, box.y + box.height / 2];
    const circleMeets = ([x, y], { box }) => {
        const dx = Math.max(box.left - x, 0, x - box.right);
        const dy = Math.max(box.top - y, 0, y - box.bottom);
        return dx * dx + dy * dy < 12 * 12;
    };
    return targets.filter(small).filter((target) => targets.some((other) => other !== target && (
        circleMeets(centre(target), other) ||
        (small(other) && Math.hypot(...centre(target).map((c, i) => c - centre(other)[i])) < 24))))
        .map(({ name, box }) => `${name}: ${box.width.toFixed(1)}x${box.height.toFixed(1)}`);
}"""


@pytest.mark.parametrize("width, height", [(360, 568), (1280, 900)], ids=["phone", "desktop"])
def test_every_control_of_the_game_is_a_large_enough_target(server, new_context, width, height):
    page = new_context(viewport={"width": width, "height": height}).new_page()
    for lang in LANGUAGES:
        page.goto(f"{server.url}/{lang}/")
        assert page.evaluate(UNDERSIZED_TARGETS) == [], lang
