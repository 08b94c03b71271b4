"""Auto-play's move: one request asks the server to play the solver's choice, numbered like a
move, and the game becomes assisted. Every game answer says where the game stands in its
headers, beside X-Game and X-Seq, so the page's script never reads it back from the page."""

from engine import Game, solver

#: Legal moves: left, right (the 1024s) and down (the last column); up changes nothing.
HINTED = [[1024, 1024, 2, 4], [4, 2, 8, 16], [2, 8, 16, 32], [8, 16, 32, 0]]
OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def start_from(player, store, rows) -> str:
    sid = store.sid_of(player.client)
    store.update(sid, game=Game.from_rows(rows, seed=1))
    return sid


def test_one_request_plays_the_solver_s_choice_and_marks_the_game_assisted(player, store):
    sid = start_from(player, store, HINTED)
    expected = Game.from_rows(HINTED, seed=1)
    expected.move(solver.choose(HINTED))
    answer = player.post("/solver-move", seq="1")
    assert answer.status_code == 200
    assert store.read(sid)["game"] == expected.position
    assert store.read(sid)["assisted"] is True
    assert 'id="assisted"' in answer.text
    assert (answer.headers["X-Seq"], answer.headers["X-Status"]) == ("1", expected.status)


def test_a_repeated_number_plays_nothing(player, store):
    sid = start_from(player, store, HINTED)
    player.post("/solver-move", seq="1")
    played = store.read(sid)["game"]
    again = player.post("/solver-move", seq="1", retry="1")
    assert again.status_code == 200 and again.headers["X-Seq"] == "1"
    assert store.read(sid)["game"] == played


def test_a_game_that_is_over_plays_nothing_and_its_answer_says_so(player, store):
    sid = start_from(player, store, OVER)
    answer = player.post("/solver-move", seq="1")
    assert (answer.headers["X-Status"], answer.headers["X-In-Progress"]) == ("over", "false")
    assert store.read(sid)["seq"] == 0 and store.read(sid)["assisted"] is False


def test_every_game_answer_says_where_the_game_stands(player, store):
    fresh = player.post("/move", direction="up", seq="1")
    assert fresh.headers["X-Status"] == "playing"
    assert fresh.headers["X-In-Progress"] == (
        "true" if store.game_of(player.client).moves else "false")
    assert "X-Hint" not in fresh.headers
    start_from(player, store, HINTED)
    hinted = player.post("/hint")
    assert hinted.headers["X-Hint"] == solver.choose(HINTED)
    won = player.move("left")
    assert (won.headers["X-Status"], won.headers["X-In-Progress"]) == ("won", "true")
    new = player.post("/new")
    assert (new.headers["X-Status"], new.headers["X-In-Progress"]) == ("playing", "false")
