"""A session id someone else holds (planted in a browser's cookie, or copied from it) stops
reaching that browser's games wherever a game begins or enters the records: the session takes
a fresh id there and keeps everything it held. The old id is answered "retry" for a moment,
then reads as unknown. On SQLite and on a real redis-server."""

from __future__ import annotations

import re
import time

import pytest

from tests.leaderboard.leaderboard_support import enter, finish, forget_game
from tests.web_support import redis_settings
from webapp.game.best_score import BEST_COOKIE, BEST_UNASSISTED_COOKIE
from webapp.i18n import LANG_COOKIE
from webapp.store.sessions import RENEWED

REPLAY_LINK = re.compile(r'href="(?:/[a-z]{2})?/games/([A-Za-z0-9_-]{22})"')
#: The moves a player tries, in this order.
PREFERENCE = ("down", "left", "right", "up")
#: Seconds a renewed session's old id is answered "retry" in these tests (a minute served).
GRACE = 0.3


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def app(request, make_web_app, tmp_path, clock):
    """An app on SQLite, then on the tests' real redis-server."""
    config = redis_settings(request, request.param) if request.param == "redis" else {}
    built = make_web_app(tmp_path / "instance", CLOCK=clock, MOVE_RATE_LIMIT="100000/second",
                         RECORDS_RATE_LIMIT="1000/minute", **config)
    built.session_interface.renewal_grace = GRACE
    return built


def session_id(client) -> str:
    return client.get_cookie("session").value


def after_the_grace() -> None:
    """Wait until a renewed session's old id reads as unknown."""
    time.sleep(GRACE + 0.05)


def play(player, store, moves: int) -> None:
    """Play `moves` moves of the player's game, each the first legal one of PREFERENCE."""
    for _ in range(moves):
        legal = store.games.get(player.game).game.legal_moves()
        assert player.move(next(d for d in PREFERENCE if d in legal)).status_code == 200


def game_links(client) -> set[str]:
    """The games the browser's "Your games" page links to."""
    page = client.get("/games")
    assert page.status_code == 200
    return set(REPLAY_LINK.findall(page.text))


@pytest.fixture
def victim(app, store, make_player):
    """A browser with a history (two played games, the second one current), a language and
    best scores, whose session id the attacker holds too (as if planted in it)."""
    player = make_player(app.test_client())
    play(player, store, 3)
    assert player.post("/new").status_code == 200
    player.show(player.client.get("/").text)
    play(player, store, 3)
    for name, value in ((LANG_COOKIE, "pl"), (BEST_COOKIE, "1234"),
                        (BEST_UNASSISTED_COOKIE, "1200")):
        player.client.set_cookie(name, value)
    return player


@pytest.fixture
def attacker(app, victim):
    """A second browser holding the victim's session id."""
    client = app.test_client()
    client.set_cookie("session", session_id(victim.client))
    return client


def test_starting_the_daily_game_gives_a_planted_id_a_fresh_one_and_keeps_all_it_held(
        app, store, victim, attacker, make_player):
    planted = session_id(victim.client)
    held = store.session(planted)
    links, current = game_links(victim.client), victim.game
    assert held["game"] == current and len(links) == 2

    daily = make_player(victim.client, "/daily")

    renewed = session_id(victim.client)
    assert renewed != planted
    assert store.session(planted) == RENEWED
    assert store.session(renewed) == {**held, "daily": daily.game}
    assert {name: victim.client.get_cookie(name).value
            for name in (LANG_COOKIE, BEST_COOKIE, BEST_UNASSISTED_COOKIE)} == {
        LANG_COOKIE: "pl", BEST_COOKIE: "1234", BEST_UNASSISTED_COOKIE: "1200"}
    assert 'lang="pl"' in daily.page.text
    assert game_links(victim.client) == links  # the daily game has no move yet
    assert make_player(victim.client).game == current
    play(daily, store, 2)
    assert game_links(victim.client) == {*links, daily.game}


def test_the_attackers_copy_of_the_old_id_reaches_none_of_the_victims_games(
        app, store, victim, attacker, make_player):
    earlier = game_links(victim.client)
    daily = make_player(victim.client, "/daily")
    play(daily, store, 2)
    before = store.games.get(daily.game)

    answer = attacker.get("/daily")
    assert answer.status_code == 503 and "Set-Cookie" not in answer.headers
    after_the_grace()
    intruder = make_player(attacker, "/daily")
    assert intruder.game != daily.game
    assert intruder.post("/move", game=daily.game, direction="left",
                         seq=str(before.seq + 1)).status_code == 409
    assert enter(intruder, game=daily.game).status_code == 404
    assert game_links(attacker).isdisjoint({*earlier, daily.game})
    assert store.games.get(daily.game).game.position == before.game.position
    assert make_player(victim.client, "/daily").game == daily.game


def test_a_game_begun_for_a_session_whose_game_was_lost_takes_a_fresh_id(
        app, store, victim, attacker, make_player):
    planted = session_id(victim.client)
    forget_game(app, victim.game)
    fresh = make_player(victim.client)
    assert fresh.game != victim.game
    assert session_id(victim.client) != planted
    after_the_grace()
    assert make_player(attacker).game != fresh.game


def test_entering_the_records_gives_the_session_a_fresh_id(app, store, victim, attacker):
    finish(victim, store)
    planted = session_id(victim.client)
    assert enter(victim).status_code == 303
    assert session_id(victim.client) != planted
    assert victim.game in game_links(victim.client)
    assert attacker.get("/games").status_code == 503
    after_the_grace()
    assert victim.game not in game_links(attacker)


def test_a_first_visit_is_stored_under_the_id_its_cookie_names(app, store):
    client = app.test_client()
    assert client.get("/").status_code == 200
    assert store.session(session_id(client))["game"]


def test_a_request_still_on_its_way_with_the_old_id_is_told_to_retry_and_changes_nothing(
        app, store, victim, make_player):
    """A second press of New game, or a page loaded while the first press renewed the id: the
    answer is the store's 503 with Retry-After, with no cookie (deleted at once, the old id
    would start a session whose cookie replaced the player's), and the page's next try
    carries the fresh id."""
    old, token = session_id(victim.client), victim.token
    assert victim.post("/new").status_code == 200
    fresh = session_id(victim.client)
    held = store.session(fresh)
    late = app.test_client()
    late.set_cookie("session", old)
    for answer in (late.get("/"), late.post("/new", data={"csrf_token": token}),
                   late.get("/state", headers={"Accept": "text/html"})):
        assert answer.status_code == 503, answer.request.path
        assert answer.headers["Retry-After"] == "1"
        assert "Set-Cookie" not in answer.headers
    assert store.session(old) == RENEWED and store.session(fresh) == held
    assert make_player(victim.client).game == held["game"]


def test_the_old_id_reads_as_unknown_once_the_grace_is_over(app, store, victim):
    old = session_id(victim.client)
    assert victim.post("/new").status_code == 200
    assert store.session(old) == RENEWED
    after_the_grace()
    assert store.session(old) is None
    late = app.test_client()
    late.set_cookie("session", old)
    assert late.get("/").status_code == 200
    assert session_id(late) != old  # a new visitor's session, under an id of its own
