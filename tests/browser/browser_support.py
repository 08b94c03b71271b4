"""What several browser tests read off the page: the board it shows, the numbers it writes,
when its animation is done, the session its browser holds."""

from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.board_html import number_pattern


def shown_board(page: Page) -> list[list[int]]:
    """The board the page shows, from its current (not leaving) tiles."""
    return page.evaluate("""() => {
        const rows = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
        for (const tile of document.querySelectorAll('#board .tile:not([data-leaving])')) {
            rows[Number(tile.dataset.row)][Number(tile.dataset.col)] = Number(tile.dataset.value);
        }
        return rows;
    }""")


def expect_number(locator: Locator, number: int, timeout: float | None = None) -> None:
    """Wait until `locator` shows `number`, written as the page's language writes it ("14,200",
    "14 200", "1420"); `timeout` in ms, Playwright's default if None."""
    expect(locator).to_have_text(number_pattern(number), timeout=timeout)


def settle(page: Page) -> None:
    """Wait until the last answer is drawn (each move of several in turn) and its animation has
    ended: only current tiles remain."""
    expect(page.locator("#board[data-drawing]")).to_have_count(0)
    expect(page.locator("#board .tile[data-leaving]")).to_have_count(0)


def animations_done(page: Page) -> None:
    """Wait until no animation or transition on the page is running (fades, pops, slides)."""
    page.wait_for_function(
        "() => document.getAnimations().every((animation) => animation.playState !== 'running')")


def phone_device(playwright) -> dict:
    """Context options of a phone (Pixel 7: touch, 412 px wide)."""
    device = dict(playwright.devices["Pixel 7"])
    device.pop("default_browser_type", None)
    return device


def session_id(context: BrowserContext) -> str:
    """The session id a browser context holds."""
    return next(cookie["value"] for cookie in context.cookies() if cookie["name"] == "session")
