"""Every page fits every phone: at 320, 360, 390 and 430 px, in English, Polish and Japanese, no
page is wider than the screen, and from 360 px up nothing is hidden sideways in a box (a table in a
scroller counts). The pages are those a player reaches: the game with its win and end banners, the
daily game with its banner once entered, both records tables with a 24-character name, the
records form, the rules, strategy and solver pages, the list of games, a replay, a finished
review, the offline page and the page for a missing address. Names in the records wrap between
words with their Replay link on the screen, the game's buttons stay inside the board, the
navigation keeps one row, and a hint's values show on a 360x640 phone without scrolling."""

import pytest
from playwright.sync_api import Page, expect

from engine import Game
from tests.browser.test_browser_leaderboard import KEY_OF, play_to_the_last_move

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGUAGES = ("en", "pl", "ja")
WIDTHS = (320, 360, 390, 430)
#: From this width up, no box may hide its content sideways either.
NOTHING_HIDDEN_FROM = 360
#: 24 characters, the longest name the records take, in words of a likely length.
LONG_NAME = "Małgorzata Wiśniewska 12"
NEAR_WIN = [[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]]
#: A position with three legal moves, so a hint lists three values.
HINTED = [[1024, 1024, 2, 4], [4, 2, 8, 16], [2, 8, 16, 32], [8, 16, 32, 0]]

# What sticks out: the page's width past the screen, and each element that clips or scrolls
# sideways a content wider than itself (a screen reader's visually hidden text aside).
OVERFLOW = """() => {
  const hidden = [];
  for (const element of document.querySelectorAll("body *")) {
    const style = getComputedStyle(element);
    if (style.overflowX === "visible" || element.clientWidth <= 1) continue;
    if (element.scrollWidth > element.clientWidth + 1) {
      hidden.push(`${element.tagName.toLowerCase()}.${element.className}` +
                  ` ${element.scrollWidth}/${element.clientWidth}`);
    }
  }
  return { page: document.documentElement.scrollWidth, hidden };
}"""


@pytest.fixture
def server(serve):
    """The game served with budgets the posted moves and page loads never exhaust."""
    return serve(MOVE_RATE_LIMIT="100000/second", PAGE_RATE_LIMIT="100000/minute",
                 HISTORY_RATE_LIMIT="100000/second")


def finished_and_entered(page: Page, server, path: str, name: str) -> str:
    """Play the game at `path` (the game or the daily game) to its end in this browser, enter
    it in the records under `name`; its id."""
    page.goto(f"{server.url}/en{path}")
    game_id = page.locator("#game").get_attribute("data-game")
    last = play_to_the_last_move(page, server, game_id)
    page.reload()
    page.keyboard.press(KEY_OF[last])
    page.locator(".overlay-over").get_by_role("link", name="Enter the records").click()
    page.get_by_label("Your name in the table").fill(name)
    page.get_by_role("button", name="Enter the records").click()
    expect(page.locator(f"#entry-{game_id}")).to_be_visible()
    return game_id


def reviewed(page: Page, server, game_id: str) -> None:
    """Ask for the game's review and wait until it is done."""
    page.goto(f"{server.url}/en/games/{game_id}/review")
    page.get_by_role("button", name="Review this game").click()
    expect(page.locator(".costly-table")).to_be_visible(timeout=60_000)


#: The pages that answer other than 200: a form for a game that has entered, a missing page.
STATUS = {"records form, its game already in": 409, "missing": 404}


def pages_of(game_id: str) -> dict[str, str]:
    """Every page a player reaches, by name: its path with the language left open."""
    return {
        "game, its end banner": "/{lang}/",
        "daily game, its banner once entered": "/{lang}/daily",
        "records": "/{lang}/records",
        "daily records": "/{lang}/records/daily",
        "records form, its game already in": f"/{{lang}}/records/enter?game={game_id}",
        "rules": "/{lang}/rules",
        "strategy": "/{lang}/strategy",
        "solver": "/{lang}/solver",
        "your games": "/{lang}/games",
        "replay": f"/{{lang}}/games/{game_id}",
        "review": f"/{{lang}}/games/{game_id}/review",
        "offline": "/{lang}/offline",
        "missing": "/{lang}/no-such-page",
    }


@pytest.fixture
def played(browser, server):
    """A browser whose ordinary and daily games are over and entered under LONG_NAME, the
    ordinary one reviewed: (its page, the ordinary game's id)."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    game_id = finished_and_entered(page, server, "/", LONG_NAME)
    finished_and_entered(page, server, "/daily", LONG_NAME)
    reviewed(page, server, game_id)
    yield page, game_id
    context.close()


def test_every_page_fits_every_phone_in_every_language(played, server, artifacts):
    page, game_id = played
    misfits = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740})
        for lang in LANGUAGES:
            for name, path in pages_of(game_id).items():
                answer = page.goto(server.url + path.format(lang=lang))
                assert answer.status == STATUS.get(name, 200), (name, lang)
                found = page.evaluate(OVERFLOW)
                if found["page"] > width or (width >= NOTHING_HIDDEN_FROM and found["hidden"]):
                    misfits.append(f"{name} {lang} {width}px: page {found['page']} px, "
                                   f"hidden {found['hidden']}")
                    slug = name.split(",")[0].replace(" ", "-")
                    page.screenshot(path=artifacts / f"misfit-{width}-{lang}-{slug}.png",
                                    full_page=True)
    assert not misfits, "\n".join(misfits)


def test_names_in_the_records_wrap_between_words_beside_their_replay_link(played, server):
    page, game_id = played
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740})
        for lang in LANGUAGES:
            page.goto(f"{server.url}/{lang}/records")
            name = page.locator(f"#entry-{game_id} .records-name")
            lines_per_word = name.evaluate("""(cell) => {
                const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
                let node = walker.nextNode();
                while (node && !node.textContent.trim()) node = walker.nextNode();
                const text = node.textContent;
                let at = text.indexOf(text.trim());
                const lines = [];
                for (const word of text.trim().split(" ")) {
                    const range = document.createRange();
                    range.setStart(node, at);
                    range.setEnd(node, at + word.length);
                    lines.push(new Set([...range.getClientRects()]
                        .map((rect) => Math.round(rect.top))).size);
                    at += word.length + 1;
                }
                return lines;
            }""")
            assert lines_per_word == [1, 1, 1], (width, lang)
            replay = page.locator(f"#entry-{game_id}").get_by_role("link").bounding_box()
            assert 0 <= replay["x"] and replay["x"] + replay["width"] <= width, (width, lang)


def test_the_game_buttons_and_the_win_banner_fit_the_board_in_every_language(browser, server):
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 740},
                                      service_workers="block")
        page = context.new_page()
        page.goto(f"{server.url}/en/")
        server.store.update(server.sid_of(context), game=Game.from_rows(NEAR_WIN, seed=7))
        page.reload()
        page.keyboard.press("ArrowLeft")
        expect(page.locator(".overlay-won")).to_be_visible()
        for lang in LANGUAGES:
            page.goto(f"{server.url}/{lang}/")
            expect(page.locator(".overlay-won")).to_be_visible()
            board = page.locator(".board-frame").bounding_box()
            for selector in (".game-actions .button", ".overlay-won .button"):
                for button in page.locator(selector).all():
                    box = button.bounding_box()
                    assert board["x"] - 0.5 <= box["x"], (width, lang, selector)
                    assert box["x"] + box["width"] <= board["x"] + board["width"] + 0.5, (
                        width, lang, selector, box, board)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (width, lang)
        context.close()


def test_the_hints_values_and_a_one_row_navigation_fit_a_360x640_phone(browser, server):
    for lang in LANGUAGES:
        context = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True,
                                      has_touch=True, service_workers="block")
        page = context.new_page()
        page.goto(f"{server.url}/{lang}/")
        server.store.update(server.sid_of(context), game=Game.from_rows(HINTED, seed=1))
        page.reload()
        links = page.locator(".site-nav a")
        assert len({round(link.bounding_box()["y"]) for link in links.all()}) == 1, lang
        page.locator("#hint-button").click()
        expect(page.locator("#hint-values li")).to_have_count(3)
        values = page.locator("#hint-values").bounding_box()
        assert values["y"] + values["height"] <= 640, (lang, values)
        assert page.evaluate("scrollY") == 0
        context.close()
