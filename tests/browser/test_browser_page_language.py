"""The page's language governs its answers: a game page at /pl/ stays Polish after a move in a
browser set to English or Japanese, or holding a `lang` cookie of another language; so does the
replay it links to."""

import pytest
from playwright.sync_api import expect

from engine import Game
from webapp.i18n import LANG_COOKIE, LANGUAGES

pytestmark = pytest.mark.browser

#: Two tiles that slide left, nothing merges: the score stays 0.
SLIDE_LEFT = [[0, 2, 0, 0], [0] * 4, [0, 0, 0, 4], [0] * 4]
MOVED_LEFT = {"en": "Moved left. Score: 0.", "pl": "Ruch w lewo. Wynik: 0.",
              "ja": "左へ移動。スコア：0。"}
LABELS = {"en": ["Score", "Best", "Moves"], "pl": ["Wynik", "Rekord", "Ruchy"],
          "ja": ["スコア", "ベスト", "手数"]}
FIRST_OF_ONE = {"en": "Move 1 of 1", "pl": "Ruch 1 z 1", "ja": "1手中1手目"}
#: (the page's language, another language, where the browser says it): every pairing.
OTHERS = [(lang, other, by) for lang in LANGUAGES for other in LANGUAGES if other != lang
          for by in ("browser", "cookie")]


def browser_in(new_context, server, other: str, by: str):
    """A page in a browser that speaks `other`: by its locale, or by a remembered cookie."""
    if by == "browser":
        return new_context(locale=other).new_page()
    context = new_context(locale="en-US" if other != "en" else "pl-PL")
    context.add_cookies([{"name": LANG_COOKIE, "value": other, "url": server.url}])
    return context.new_page()


@pytest.mark.parametrize("lang, other, by", OTHERS)
def test_a_move_answers_in_the_pages_language(server, new_context, lang, other, by):
    page = browser_in(new_context, server, other, by)
    page.goto(f"{server.url}/{lang}/")
    server.store.update(server.sid_of(page.context),
                        game=Game.from_rows(SLIDE_LEFT, seed=1))
    page.reload()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#announcement")).to_have_text(MOVED_LEFT[lang])
    expect(page.locator(".score-label")).to_have_text(LABELS[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_replay_it_links_to_steps_in_the_pages_language(server, new_context, lang):
    other = next(code for code in LANGUAGES if code != lang)
    page = browser_in(new_context, server, other, "browser")
    page.goto(f"{server.url}/{lang}/")
    server.store.update(server.sid_of(page.context),
                        game=Game.from_rows(SLIDE_LEFT, seed=1))
    page.reload()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#moves")).to_have_text("1")
    game_id = page.locator("#game").get_attribute("data-game")
    page.locator("#replay-link").click()
    expect(page).to_have_url(f"{server.url}/{lang}/games/{game_id}")
    page.wait_for_load_state()  # the viewer's script is running
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-announcement")).to_contain_text(FIRST_OF_ONE[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)
