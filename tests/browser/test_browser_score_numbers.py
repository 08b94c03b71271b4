"""The best scores the page's script writes (best.js) look like those the server writes: a higher
best kept in the browser is shown grouped the page's language's way, a grouped best the server
drew is read back, and the cookie and storage keep the plain number."""

import pytest
from playwright.sync_api import Page, expect

from engine import Game
from webapp.i18n import LANGUAGES, number_text

pytestmark = pytest.mark.browser

#: Four digits (which Polish leaves ungrouped), five, seven.
NUMBERS = [1420, 9998, 14200, 1234567]
#: 14200 and 1420 as each language writes them.
WRITTEN = {"en": ("14,200", "1,420"), "pl": ("14\u00a0200", "1420"), "ja": ("14,200", "1,420")}
ROWS = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]


def kept_best(page: Page) -> tuple[str, str]:
    """The best score as the browser keeps it: its cookie, and its localStorage entry."""
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "best")
    return cookie, page.evaluate("() => localStorage.getItem('best')")


def test_the_browser_writes_numbers_as_the_server_does(page: Page, server):
    for lang in LANGUAGES:
        with server.app.test_request_context(f"/{lang}/"):
            expected = [number_text(number) for number in NUMBERS]
        written = page.evaluate("""([lang, numbers]) => numbers.map((number) =>
            new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(number))""",
                                [lang, NUMBERS])
        assert written == expected, lang


@pytest.mark.parametrize("lang", WRITTEN)
def test_a_higher_best_kept_in_the_browser_is_shown_grouped(page: Page, server, lang):
    page.goto(f"{server.url}/{lang}/")
    expect(page.locator("#best")).to_have_text("0")
    for stored, shown in zip(("14200", "1420"), WRITTEN[lang]):
        page.evaluate("(stored) => localStorage.setItem('best', stored)", stored)
        page.context.clear_cookies(name="best")  # so the server draws 0
        page.reload()
        expect(page.locator("#best")).to_have_text(shown)
        assert kept_best(page) == (stored, stored)


@pytest.mark.parametrize("lang", WRITTEN)
def test_a_grouped_best_the_server_drew_is_read_and_kept_as_a_plain_number(page: Page, server,
                                                                            lang):
    page.goto(f"{server.url}/{lang}/")
    page.evaluate("() => localStorage.setItem('best', '9998')")  # lower than the game's score
    server.store.update(server.sid_of(page.context),
                        game=Game.from_rows(ROWS, score=14200, seed=3))
    page.reload()
    expect(page.locator("#best")).to_have_text(WRITTEN[lang][0])
    page.wait_for_function("() => localStorage.getItem('best') === '14200'")
    assert kept_best(page) == ("14200", "14200")
