"""The game's routes through Flask's test client: intents in, fragments out, the game in the session."""

import logging
import re

from engine import Game

TILE = re.compile(r'<div class="tile" data-id="\d+" data-value="(\d+)" data-row="(\d)" data-col="(\d)"(?![^>]*data-leaving)')


def shown_rows(html: str) -> tuple[tuple[int, ...], ...]:
    """The board a fragment or page shows, read from its tile elements."""
    rows = [[0] * 4 for _ in range(4)]
    for value, row, col in TILE.findall(html):
        rows[int(row)][int(col)] = int(value)
    return tuple(tuple(row) for row in rows)


def stored_game(store, client) -> Game:
    return Game.from_dict(store.read(store.sid_of(client))["game"])


def test_index_starts_a_game_and_shows_it(client):
    page = client.get("/")
    assert page.status_code == 200
    assert len(re.findall(r'class="tile"', page.text)) == 2
    assert '<meta name="csrf-token"' in page.text
    assert '<script type="application/json" id="controls">' in page.text


def test_index_shows_the_same_game_on_every_visit(client):
    first = shown_rows(client.get("/").text)
    assert shown_rows(client.get("/").text) == first


def test_move_applies_the_direction_and_answers_the_fragment(player, store):
    before = stored_game(store, player.client)
    answer = player.move("left")
    expected = Game.from_dict(before.to_dict())
    moved = expected.move("left")
    assert answer.status_code == 200
    assert answer.headers["X-Seq"] == "1"
    assert "<html" not in answer.text
    assert shown_rows(answer.text) == expected.rows
    assert f'<span id="moves" class="score-value">{expected.moves}</span>' in answer.text
    assert stored_game(store, player.client).rows == expected.rows
    assert ("Moved left" if moved else "Nothing moves left") in answer.text


def test_a_repeated_move_number_is_not_applied_twice(player, store):
    player.move("left")
    player.move("up")
    after_two = stored_game(store, player.client)
    retry = player.post("/move", direction="down", seq="2")
    assert retry.status_code == 200
    assert retry.headers["X-Seq"] == "2"
    assert shown_rows(retry.text) == after_two.rows
    assert stored_game(store, player.client).to_dict() == after_two.to_dict()


def test_unknown_direction_is_refused_and_changes_nothing(player, store):
    before = stored_game(store, player.client).to_dict()
    for form in ({"direction": "sideways", "seq": "1"}, {"seq": "1"}, {"direction": "left"},
                 {"direction": "left", "seq": "-3"}, {"direction": "left", "seq": "x1"}):
        answer = player.post("/move", **form)
        assert answer.status_code == 400
        assert 'id="message"' in answer.text
        assert re.search(r'role="alert">\S', answer.text)
    assert stored_game(store, player.client).to_dict() == before


def test_post_without_csrf_token_is_refused(player, store):
    before = stored_game(store, player.client).to_dict()
    for path in ("/move", "/new", "/keep-playing", "/hint"):
        answer = player.client.post(path, data={"direction": "left", "seq": "1"})
        assert answer.status_code == 400
        assert "security token" in answer.text
    assert stored_game(store, player.client).to_dict() == before


def test_error_message_follows_the_players_language(player):
    player.client.set_cookie("lang", "pl")
    answer = player.post("/move", direction="sideways", seq="1")
    assert answer.status_code == 400
    assert "Nieznany kierunek" in answer.text


def test_new_game_replaces_the_game_and_keeps_counting_moves(player, store):
    player.move("left")
    player.move("up")
    answer = player.post("/new")
    assert answer.status_code == 200
    assert answer.headers["X-Seq"] == "3"
    stored = store.read(store.sid_of(player.client))
    assert Game.from_dict(stored["game"]).moves == 0
    assert stored["seq"] == 3
    assert '<span id="score" class="score-value">0</span>' in answer.text


def won_game() -> Game:
    game = Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]], seed=7)
    game.move("left")
    return game


def test_win_banner_and_keep_playing(player, store):
    store.update(store.sid_of(player.client), game=won_game().to_dict())
    page = player.client.get("/")
    assert "You made 2048!" in page.text
    assert 'data-intent="keep-playing"' in page.text
    refused = player.move("right")
    assert "You made 2048!" in refused.text
    answer = player.post("/keep-playing")
    assert answer.status_code == 200
    assert "You made 2048!" not in answer.text
    assert player.move("right").status_code == 200
    assert stored_game(store, player.client).moves == 2


def test_a_win_that_fills_the_board_shows_the_banner_before_game_over(player, store):
    rows = [[1024, 1024, 8, 16], [4, 32, 64, 128], [8, 64, 128, 256], [4, 8, 16, 32]]
    store.update(store.sid_of(player.client), game=Game.from_rows(rows, seed=3).to_dict())
    won = player.move("left").text
    assert 'data-state="won"' in won and "You made 2048!" in won
    assert "Game over" not in won and "Try again" not in won
    over = player.post("/keep-playing").text
    assert 'data-state="over"' in over and "Game over" in over
    assert "You made 2048!" not in over


def test_game_over_shows_try_again(player, store):
    over = Game.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]], score=100)
    store.update(store.sid_of(player.client), game=over.to_dict())
    page = player.client.get("/")
    assert "Game over" in page.text
    assert "Try again" in page.text
    assert 'data-state="over"' in page.text


def test_tampered_session_cookie_starts_a_new_game(client):
    client.get("/")
    client.set_cookie("session", "not-a-session-anyone-has")
    page = client.get("/")
    assert page.status_code == 200
    assert len(re.findall(r'class="tile"', page.text)) == 2


def test_invalid_stored_game_starts_a_new_game_and_logs_a_warning(player, store, caplog):
    sid = store.sid_of(player.client)
    store.update(sid, game={"version": 1, "rows": "garbage"})
    with caplog.at_level(logging.WARNING, logger="webapp.game.stored_game"):
        page = player.client.get("/")
    assert page.status_code == 200
    assert "Stored game rejected" in caplog.text
    assert Game.from_dict(store.read(sid)["game"]).moves == 0


def test_invalid_stored_move_number_starts_a_new_game(player, store, caplog):
    sid = store.sid_of(player.client)
    store.update(sid, seq="seven")
    with caplog.at_level(logging.WARNING, logger="webapp.game.stored_game"):
        assert player.move("left").status_code == 200
    assert "Stored game rejected" in caplog.text


def test_session_is_permanent_with_a_sliding_expiry(app, player):
    assert player.client.get_cookie("session").expires is not None
    assert app.permanent_session_lifetime.days == 30
    assert "session=" in player.move("left").headers["Set-Cookie"]
    assert "Set-Cookie" not in player.client.get("/static/css/base.css").headers
    assert app.session_interface.cache._threshold == app.config["SESSION_STORE_MAX_ENTRIES"] > 500


def test_hint_shows_a_direction_and_marks_the_game_assisted(player, store):
    answer = player.post("/hint")
    assert answer.status_code == 200
    direction = re.search(r'id="hint-arrow" class="hint-arrow" data-direction="(\w+)"', answer.text)
    assert direction.group(1) in ("up", "down", "left", "right")
    assert 'id="assisted"' in answer.text
    assert store.read(store.sid_of(player.client))["assisted"] is True
    assert 'id="assisted"' not in player.post("/new").text


def test_hint_requests_are_limited_per_session(tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "limited", SOLVER_RATE_LIMIT="2/minute")
    player = make_player(app.test_client())
    assert player.post("/hint").status_code == 200
    assert player.post("/hint").status_code == 200
    limited = player.post("/hint")
    assert limited.status_code == 429
    assert "solver needs a short break" in limited.text
    other = make_player(app.test_client())
    assert other.post("/hint").status_code == 200


def test_an_oversized_body_gets_a_message_not_a_page(tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "capped", MAX_CONTENT_LENGTH=1024)
    player = make_player(app.test_client())
    answer = player.post("/move", direction="left", seq="1", padding="x" * 4096)
    assert answer.status_code == 413
    assert 'id="message"' in answer.text and "too large" in answer.text


def test_a_missing_page_keeps_the_plain_not_found_page(client):
    answer = client.get("/no-such-page")
    assert answer.status_code == 404
    assert 'id="message"' not in answer.text
