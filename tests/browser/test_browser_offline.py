"""Installable and offline: the service worker registers for the whole site; offline, the page says
so over the last board it had, plays nothing, and carries on by itself once the connection is
back; a page loaded offline is the offline page, never a kept copy of the game."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browser_support import settle, shown_board
from tests.browser.page_posts import named_move, posts_sent, record_posts

pytestmark = pytest.mark.browser

START = [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]


def wait_for_the_worker(page: Page) -> dict:
    """Wait until the service worker controls the page; its script URL and scope."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        return {script: registration.active.scriptURL, scope: registration.scope};
    }""")


def test_the_worker_registers_for_the_whole_site(page: Page, server):
    page.goto(server.url + "/ja/rules")
    worker = wait_for_the_worker(page)
    assert worker == {"script": f"{server.url}/service-worker.js", "scope": f"{server.url}/"}
    assert page.evaluate("async () => (await caches.keys()).length") == 1


def test_offline_the_page_says_so_and_plays_nothing_until_the_connection_is_back(
        page: Page, context, open_game):
    record_posts(page)
    open_game(page, START, seed=3)
    notice = page.locator("#offline-notice")
    expect(notice).to_be_hidden()
    context.set_offline(True)
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("kept on the server")
    page.keyboard.press("ArrowLeft")
    page.locator("#hint-button").click(force=True)
    assert posts_sent(page) == []  # recorded as the script sends: no waiting needed
    assert page.locator("#moves").inner_text() == "0"
    context.set_offline(False)
    expect(notice).to_be_hidden()
    page.keyboard.press("ArrowUp")
    expect(page.locator("#moves")).to_have_text("1")
    # The first request after the connection is back is this move: nothing was kept from before.
    assert [named_move(post.split(" ", 1)[1]) for post in posts_sent(page)] == ["direction=up&seq=1"]


def test_a_page_loaded_offline_shows_the_last_board_then_the_game_again(page: Page, context,
                                                                        open_game):
    open_game(page, START, seed=3)
    wait_for_the_worker(page)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#moves")).to_have_text("1")
    settle(page)
    last_board = shown_board(page)

    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-notice")).to_be_visible()
    assert page.locator('meta[name="csrf-token"]').count() == 0, "no kept copy of the game page"
    assert page.locator("#controls").count() == 0
    assert shown_board(page) == last_board
    expect(page.locator("#moves")).to_have_text("1")

    context.set_offline(False)  # the offline page reloads by itself into the live game
    page.wait_for_function("""() => document.readyState === "complete"
        && document.querySelector('meta[name="csrf-token"]') !== null""", timeout=10_000)
    expect(page.locator("#offline-notice")).to_be_hidden()
    assert shown_board(page) == last_board
    page.keyboard.press("ArrowUp")
    expect(page.locator("#moves")).to_have_text("2")


def test_offline_a_fragment_fetched_online_is_a_network_error_not_a_kept_copy(
        page: Page, context, open_game):
    """The worker keeps only the shell: the game's state, like every fragment, is the server's."""
    open_game(page, START, seed=3)
    wait_for_the_worker(page)
    state = "/state?game=" + page.locator("[data-game]").first.get_attribute("data-game")
    fetch = """async (url) => {
        try { return (await fetch(url)).status; } catch { return "network error"; }
    }"""
    assert page.evaluate(fetch, state) == 200
    context.set_offline(True)
    assert page.evaluate(fetch, state) == "network error"
    context.set_offline(False)


def test_a_page_loaded_offline_speaks_the_last_pages_language(page: Page, server, context):
    page.goto(server.url + "/pl/strategy")
    wait_for_the_worker(page)
    page.wait_for_function("""async () => {
        const told = await caches.match("/last-page-language");
        return told && (await told.text()) === "pl";
    }""")
    context.set_offline(True)
    page.goto(server.url + "/")  # no prefix: the language of the last page loaded
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("#offline-notice")).to_contain_text("Jesteś offline")
    page.goto(server.url + "/ja/solver")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    context.set_offline(False)


def test_installed_full_screen_the_page_never_pulls_to_refresh(page: Page, server):
    page.goto(server.url)
    rules = page.evaluate("""() => [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules])
        .filter((rule) => rule instanceof CSSMediaRule && rule.media.mediaText === "(display-mode: standalone)")
        .flatMap((rule) => [...rule.cssRules].map((inner) => [inner.selectorText, inner.style.overscrollBehaviorY]))""")
    assert ["html, body", "none"] in rules
    manifest = page.evaluate("""async () =>
        (await fetch(document.querySelector('link[rel="manifest"]').href)).json()""")
    assert manifest["display"] == "standalone"
