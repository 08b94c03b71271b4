"""The game's routes through Flask's test client: intents in, fragments out, the game in the store."""

import re
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

import pytest

from engine import Game, solver
from harness.player import game_id
from tests.board_html import shown_rows, shown_scores
from webapp.store.sessions import RENEWED

MOVES_LEFT = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]
BLOCKED_LEFT = [[2, 0, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4]


def test_index_starts_a_game_and_shows_it(client):
    page = client.get("/")
    assert page.status_code == 200
    assert len(re.findall(r'class="tile"', page.text)) == 2
    assert '<meta name="csrf-token"' in page.text
    assert '<script type="application/json" id="controls">' in page.text


def test_index_shows_the_same_game_on_every_visit(client):
    first = shown_rows(client.get("/").text)
    assert shown_rows(client.get("/").text) == first


@pytest.mark.parametrize("rows, moves", [(MOVES_LEFT, True), (BLOCKED_LEFT, False)])
def test_move_applies_the_direction_and_answers_the_fragment(player, store, rows, moves):
    store.update(store.sid_of(player.client), game=Game.from_rows(rows, seed=3))
    before = store.game_of(player.client)
    answer = player.move("left")
    expected = Game.from_saved(before.to_saved())
    assert expected.move("left") is moves
    assert answer.status_code == 200
    assert answer.headers["X-Seq"] == "1"
    assert "<html" not in answer.text
    assert shown_rows(answer.text) == expected.rows
    assert shown_scores(answer.text)["moves"] == expected.moves
    assert store.game_of(player.client).rows == expected.rows
    assert ("Moved left" if moves else "Nothing moves left") in answer.text


def test_a_repeated_move_number_is_not_applied_twice(player, store):
    store.update(store.sid_of(player.client), game=Game.from_rows(MOVES_LEFT, seed=3))
    player.move("left")
    player.move("up")
    after_two = store.game_of(player.client)
    assert "down" in after_two.legal_moves()  # so a second application would show
    retry = player.post("/move", direction="down", seq="2", retry="1")
    assert retry.status_code == 200
    assert retry.headers["X-Seq"] == "2"
    assert shown_rows(retry.text) == after_two.rows
    assert store.game_of(player.client).position == after_two.position


def test_a_number_past_the_next_one_is_not_applied_and_cannot_dead_end_the_game(player, store):
    before = store.game_of(player.client).position
    wild = player.post("/move", direction="left", seq="999999999999")
    assert wild.status_code == 200 and wild.headers["X-Seq"] == "0"
    assert store.game_of(player.client).position == before
    assert player.move("left").headers["X-Seq"] == "1"  # the page's next number still works


def test_unknown_direction_is_refused_and_changes_nothing(player, store):
    before = store.game_of(player.client).position
    for form in ({"direction": "sideways", "seq": "1"}, {"seq": "1"}, {"direction": "left"},
                 {"direction": "left", "seq": "-3"}, {"direction": "left", "seq": "x1"}):
        answer = player.post("/move", **form)
        assert answer.status_code == 400
        assert 'id="message"' in answer.text
        assert re.search(r'role="alert">\S', answer.text)
    assert store.game_of(player.client).position == before


def test_post_without_csrf_token_is_refused(player, store):
    player.move(store.game_of(player.client).legal_moves()[0])  # so an undo would change it
    before = store.game_of(player.client).position
    for path in ("/move", "/solver-move", "/undo", "/new", "/keep-playing", "/hint",
                 f"/games/{player.game}/review", "/records"):
        answer = player.client.post(path, data={"direction": "left", "seq": "2",
                                                "game": player.game, "name": "Ada"})
        assert answer.status_code == 400
        assert "security token" in answer.text
    assert store.game_of(player.client).position == before


def test_error_message_follows_the_players_language(player):
    player.client.set_cookie("lang", "pl")
    answer = player.post("/move", direction="sideways", seq="1")
    assert answer.status_code == 400
    assert "Nieznany kierunek" in answer.text


def test_new_game_is_a_new_record_with_its_own_numbering_and_a_new_session_id(player, store):
    first_game, first_sid = player.game, store.sid_of(player.client)
    player.move("left")
    player.move("up")
    answer = player.post("/new")
    assert answer.status_code == 200
    assert answer.headers["X-Seq"] == "0" and answer.headers["X-Game"] != first_game
    sid = store.sid_of(player.client)
    assert sid != first_sid and store.session(first_sid) == RENEWED
    stored = store.read(sid)
    assert stored["game"].moves == 0 and stored["id"] == answer.headers["X-Game"]
    assert store.session(sid)["games"] == [first_game]
    assert store.games.get(first_game).seq == 2  # the earlier game is kept, unchanged
    assert shown_scores(answer.text)["score"] == 0
    assert player.move("left").headers["X-Seq"] == "1"


def won_game() -> Game:
    game = Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]], seed=7)
    game.move("left")
    return game


def test_win_banner_and_keep_playing(player, store):
    store.update(store.sid_of(player.client), game=won_game())
    page = player.client.get("/")
    assert "You made 2048!" in page.text
    assert 'data-intent="keep-playing"' in page.text
    refused = player.move("right")
    assert "You made 2048!" in refused.text
    answer = player.post("/keep-playing")
    assert answer.status_code == 200
    assert "You made 2048!" not in answer.text
    assert player.move("right").status_code == 200
    assert store.game_of(player.client).moves == 2


def test_a_win_that_fills_the_board_shows_the_banner_before_game_over(player, store):
    rows = [[1024, 1024, 8, 16], [4, 32, 64, 128], [8, 64, 128, 256], [4, 8, 16, 32]]
    store.update(store.sid_of(player.client), game=Game.from_rows(rows, seed=3))
    won = player.move("left")
    assert won.headers["X-Status"] == "won" and "You made 2048!" in won.text
    assert "Game over" not in won.text and "Try again" not in won.text
    over = player.post("/keep-playing")
    assert over.headers["X-Status"] == "over" and "Game over" in over.text
    assert "You made 2048!" not in over.text


def test_game_over_shows_try_again(player, store):
    over = Game.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]], score=100,
                          seed=0)
    store.update(store.sid_of(player.client), game=over)
    page = player.client.get("/")
    assert "Game over" in page.text
    assert "Try again" in page.text
    assert re.search(r'id="game"[^>]* data-state="over" data-in-progress="false"', page.text)


def test_tampered_session_cookie_starts_a_new_game(client, store):
    first = game_id(client.get("/").text)
    client.set_cookie("session", "not-a-session-anyone-has")
    page = client.get("/")
    assert page.status_code == 200
    assert len(re.findall(r'class="tile"', page.text)) == 2
    assert game_id(page.text) != first
    assert store.sid_of(client) != "not-a-session-anyone-has"
    assert store.session("not-a-session-anyone-has") is None
    assert store.read(store.sid_of(client))["id"] == game_id(page.text)


def test_session_cookie_expires_in_an_hour_until_played_then_with_the_lifetime(app, player,
                                                                               store):
    def days_left(response) -> float:
        cookie = next(c for c in response.headers.getlist("Set-Cookie") if c.startswith("session"))
        expires = parsedate_to_datetime(re.search(r"Expires=([^;]+)", cookie).group(1))
        return (expires - datetime.now(timezone.utc)).total_seconds() / 86400

    assert days_left(player.page) < 1 / 23
    store.update(store.sid_of(player.client), game=Game.from_rows(
        [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3))  # left, then up, move
    assert 30.9 < days_left(player.move("left")) <= 31  # a day past the stored session's 30
    assert "Set-Cookie" not in player.move("up").headers  # renewed at most once a day
    assert "Set-Cookie" not in player.client.get("/static/css/base.css").headers


#: Legal moves: left, right (the 1024s) and down (the last column); up changes nothing.
HINTED = [[1024, 1024, 2, 4], [4, 2, 8, 16], [2, 8, 16, 32], [8, 16, 32, 0]]


def test_hint_ranks_exactly_the_legal_moves_and_marks_the_game_assisted(player, store):
    store.update(store.sid_of(player.client), game=Game.from_rows(HINTED, seed=1))
    answer = player.post("/hint")
    assert answer.status_code == 200
    arrow = re.search(r'id="hint-arrow" class="hint-arrow" data-direction="(\w+)"', answer.text)
    ranked = re.findall(r'<li data-direction="(\w+)"[^>]*>[^<:]+: ([^<]+)</li>', answer.text)
    assert sorted(direction for direction, _verdict in ranked) == ["down", "left", "right"]
    assert ranked[0] == (arrow.group(1), "best move")
    assert arrow.group(1) == solver.choose(HINTED)
    # The game's setting scores with the network: each other move gives away expected points.
    assert all(re.fullmatch(r"−[\d,]+ points?|as good as the best", verdict)
               for _direction, verdict in ranked[1:])
    assert "The expected points each other move gives away against the best:" in answer.text
    assert 'id="assisted"' in answer.text
    assert store.read(store.sid_of(player.client))["assisted"] is True
    assert 'id="assisted"' not in player.post("/new").text


def test_a_hint_for_a_game_the_page_no_longer_shows_is_refused_as_stale(player):
    old_game = player.game
    player.post("/new")
    answer = player.post("/hint", game=old_game)
    assert answer.status_code == 409 and answer.headers["X-Stale"] == "1"


def test_a_missing_page_is_a_404_page_not_the_message_fragment(client):
    answer = client.get("/no-such-page")
    assert answer.status_code == 404
    assert 'id="message"' not in answer.text
