"""Quick presses on a slow link: the moves pressed while a request is in flight go to the server
together, in one request, when it answers, and each lands once, in order, also when that
request is retried (a server error, a lost answer, a 429) or another tab moved meanwhile.

Each test holds the first move's request (page.route) while it presses the others, then lets it
go."""

import pytest
from playwright.sync_api import Page, Route, expect

from engine import Game
from tests.browser.browser_support import expect_number, settle, shown_board
from tests.browser.page_posts import moves_sent, record_posts
from webapp.game.intents import MAX_MOVES

# These tests intercept the page's requests (the `routes` fixture), which page.route does not see
# in a page the service worker controls, so they run without it.
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="block")]

ARROWS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
START = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]
BEHIND = ["up", "right", "down", "left"]


class HeldMoves:
    """Holds the first /move request until `release()`; later ones go to `answer(route)`,
    which lets them through unless a test says otherwise."""

    def __init__(self, page: Page, routes) -> None:
        self.page, self.held, self.later = page, [], 0
        routes.route("**/move", self._route)

    def _route(self, route: Route) -> None:
        if not self.held:
            self.held.append(route)
            return
        self.later += 1
        self.answer(route, self.later)

    def answer(self, route: Route, number: int) -> None:
        route.continue_()

    def wait_until_held(self) -> None:
        for _ in range(200):
            if self.held:
                return
            self.page.wait_for_timeout(25)
        pytest.fail("the first move was never sent")

    def release(self) -> None:
        self.held[0].continue_()


def open_and_hold(page: Page, routes, server, open_game, first: str, behind: list[str],
                  held_class=HeldMoves) -> tuple[str, Game, HeldMoves]:
    """Open the START game, press `first` (held), then press `behind`; answers the session,
    the game expected after all of them, and the hold (not yet released)."""
    record_posts(page)
    sid = open_game(page, START, seed=3)
    expected = server.store.game(sid)
    hold = held_class(page, routes)
    page.keyboard.press(ARROWS[first])
    hold.wait_until_held()
    for direction in behind:
        page.keyboard.press(ARROWS[direction])
    for direction in (first, *behind):
        expected.move(direction)
    return sid, expected, hold


def assert_landed(page: Page, server, sid: str, expected: Game, seq: int) -> None:
    """The page and the store both show `expected`, with `seq` moves numbered."""
    expect_number(page.locator("#moves"), expected.moves)
    settle(page)
    assert shown_board(page) == [list(row) for row in expected.rows]
    expect_number(page.locator("#score"), expected.score)
    stored = server.store.read(sid)
    assert stored["seq"] == seq and stored["game"] == expected.position


def test_presses_behind_an_in_flight_move_go_in_one_request_and_land_in_order(
        page: Page, routes, server, open_game):
    sid, expected, hold = open_and_hold(page, routes, server, open_game, "left", BEHIND)
    after_first = server.store.game(sid)
    after_first.move("left")
    page.wait_for_timeout(300)  # time enough for the old queue to send more: it sends nothing
    assert moves_sent(page) == ["direction=left&seq=1"]
    hold.release()
    assert_landed(page, server, sid, expected, seq=5)
    assert moves_sent(page) == [
        "direction=left&seq=1",
        "direction=up&direction=right&direction=down&direction=left&seq=2"]
    expect(page.locator(".score-gain")).to_have_text(f"+{expected.score - after_first.score}")


def test_a_request_carries_at_most_the_longest_batch_and_the_rest_follow(
        page: Page, routes, server, open_game):
    behind = (BEHIND * MAX_MOVES)[:MAX_MOVES + 3]
    sid, expected, hold = open_and_hold(page, routes, server, open_game, "left", behind)
    hold.release()
    assert_landed(page, server, sid, expected, seq=len(behind) + 1)
    sizes = [sent.count("direction=") for sent in moves_sent(page)]
    assert sizes == [1, MAX_MOVES, 3]


BATCH = "direction=up&direction=right&direction=down&seq=2"


class FailingOnce(HeldMoves):
    """The batch after the held move first meets a server error (503), once, which the server
    never saw; then it goes through, sent again unchanged."""

    resent = [BATCH, BATCH]

    def answer(self, route: Route, number: int) -> None:
        if number == 1:
            route.fulfill(status=503, body="<p>Service Unavailable</p>")
        else:
            route.continue_()


class LosingTheAnswer(HeldMoves):
    """The batch after the held move reaches the server, which applies it, but its answer is
    lost (a 503 comes instead); the page sends the same request again."""

    resent = [BATCH, BATCH]

    def answer(self, route: Route, number: int) -> None:
        if number == 1:
            route.fetch()
            route.fulfill(status=503, body="<p>Service Unavailable</p>")
        else:
            route.continue_()


class RefusedOnce(HeldMoves):
    """The batch after the held move is refused once with a 429 (Retry-After: 1): it goes
    again with the first half of its moves, and the rest follow."""

    resent = [BATCH, "direction=up&direction=right&seq=2", "direction=down&seq=4"]

    def answer(self, route: Route, number: int) -> None:
        if number == 1:
            route.fulfill(status=429, headers={"Retry-After": "1"}, body="<p>Too many</p>")
        else:
            route.continue_()


@pytest.mark.parametrize("failure", [FailingOnce, LosingTheAnswer, RefusedOnce])
def test_a_retried_batch_lands_once_and_in_order(
        page: Page, routes, server, open_game, failure):
    sid, expected, hold = open_and_hold(page, routes, server, open_game, "left", BEHIND[:3],
                                        held_class=failure)
    hold.release()
    assert_landed(page, server, sid, expected, seq=4)
    assert moves_sent(page) == ["direction=left&seq=1", *failure.resent]
    expect(page.locator("#message")).to_have_text("")


def test_presses_behind_a_stale_move_are_refused_with_it_and_the_page_shows_the_other_tabs_board(
        page: Page, routes, server, open_game):
    """Another tab plays move 1 while this page's first press is in flight: that press is not
    played (its number is used), nor are those behind it, pressed on the same old board; the
    page says so and shows the board the other tab left."""
    sid, _expected, hold = open_and_hold(page, routes, server, open_game, "left", ["up", "right"])
    other = page.context.new_page()
    other.goto(server.url)
    other.keyboard.press("ArrowDown")
    expect(other.locator("#moves")).to_have_text("1")
    after_other = server.store.game(sid)
    hold.release()
    expect(page.locator("#message")).to_contain_text("moved on in another tab")
    assert_landed(page, server, sid, after_other, seq=1)
    assert moves_sent(page) == ["direction=left&seq=1"]
