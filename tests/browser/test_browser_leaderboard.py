"""A daily game played to its end in real Chromium and entered in the records table: the
banner's "Enter the records", the form, the day's table; and the Share button's fall-back to
the clipboard. Most of the game is played through the real move route from the browser's own
context (its cookie and CSRF token), so the test does not press several hundred keys; the
last move is a key press on the page."""

import pytest
from playwright.sync_api import Page, expect

from engine import Game
from webapp.game.controls import KEYS

pytestmark = pytest.mark.browser

PREFERENCE = ("down", "left", "right", "up")
KEY_OF = {direction: key for key, direction in KEYS.items() if key.startswith("Arrow")}


def play_to_the_last_move(page: Page, server, game_id: str) -> str:
    """Post the game's moves (the first legal of PREFERENCE each time) until one more would
    end it; that last direction."""
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    seq = 0
    while True:
        game = server.store.games.get(game_id).game
        direction = next(d for d in PREFERENCE if d in game.legal_moves())
        after = Game.from_saved(game.to_saved())
        after.move(direction)
        if after.over:
            return direction
        seq += 1
        answer = page.request.post(f"{server.url}/move", headers={"X-CSRFToken": token},
                                   form={"game": game_id, "direction": direction,
                                         "seq": str(seq)})
        assert answer.status == 200


@pytest.fixture
def server(serve):
    """The game served with a move budget the posted moves never exhaust."""
    return serve(MOVE_RATE_LIMIT="100000/second")


def test_a_daily_game_played_to_its_end_is_entered_in_the_days_table(page: Page, server,
                                                                       artifacts):
    page.goto(f"{server.url}/daily")
    expect(page.locator(".daily-day")).to_contain_text("the same start for everyone today")
    game_id = page.locator("#game").get_attribute("data-game")
    last = play_to_the_last_move(page, server, game_id)
    page.reload()
    page.keyboard.press(KEY_OF[last])
    banner = page.locator(".overlay-over")
    expect(banner).to_be_visible()
    score = server.store.games.get(game_id).game.score
    page.screenshot(path=artifacts / "records-daily-over.png")
    banner.get_by_role("link", name="Enter the records").click()
    page.get_by_label("Your name in the table").fill("  Ann <b>  ")
    page.get_by_role("button", name="Enter the records").click()
    expect(page).to_have_url(f"{server.url}/en/records/daily?day="
                             f"{page.url.split('day=')[1].split('#')[0]}#entry-{game_id}")
    row = page.locator(f"#entry-{game_id}")
    expect(row.get_by_role("rowheader")).to_have_text("Ann <b>")
    expect(row).to_contain_text(f"{score:,}")
    page.screenshot(path=artifacts / "records-daily-table.png", full_page=True)
    row.get_by_role("link").click()
    expect(page).to_have_url(f"{server.url}/en/games/{game_id}")  # the replay, for its player
    expect(page.locator("h1")).to_be_visible()
    page.goto(f"{server.url}/daily")  # the banner now shows where the game stands
    expect(page.locator(".overlay-over")).to_contain_text("In the records: rank 1")
    expect(page.locator(".overlay-over").get_by_role("link", name="Enter the records")).to_have_count(0)


def test_share_copies_the_text_and_the_replay_link_where_the_browser_cannot_share(
        page: Page, server):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(server.url)
    game_id = page.locator("#game").get_attribute("data-game")
    last = play_to_the_last_move(page, server, game_id)
    page.reload()
    page.keyboard.press(KEY_OF[last])
    page.evaluate("delete Navigator.prototype.share")  # the fall-back, whatever the build
    page.locator(".overlay-over [data-share]").click()
    expect(page.locator("[data-share-status]")).to_have_text("Copied to the clipboard.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("2048: ") and copied.endswith(f"{server.url}/en/games/{game_id}")
