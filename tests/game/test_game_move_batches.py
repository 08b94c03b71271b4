"""Several moves in one request (the presses a player made while the page waited): applied in
order, each exactly as a single move, idempotent per move number, answered once with the board
after them and the points they scored together; a malformed or too long request changes
nothing; each move draws on the rate-limit budget."""

import re

import pytest

from engine import Game
from tests.board_html import shown_rows, shown_scores
from webapp.game.intents import MAX_MOVES

MOVES_LEFT = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]
#: Left moves only the top row and leaves the board full (the spawn takes the one empty cell),
#: so a second left is blocked whatever tile came; up then merges the two 8s of the first column.
LEFT_THEN_BLOCKED = [[0, 8, 16, 32], [8, 64, 128, 256], [16, 2, 4, 8], [2, 4, 8, 16]]
NEAR_LOSS = [[128, 16, 4, 128], [64, 128, 64, 16], [128, 32, 8, 4], [8, 128, 16, 0]]  # seed 5
NEAR_WIN = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0]]  # seed 7


def start_at(player, store, rows, seed: int) -> Game:
    """Put the player's game at `rows` and answer a copy of it to play the expected moves on."""
    store.update(store.sid_of(player.client), game=Game.from_rows(rows, seed=seed))
    return store.game_of(player.client)


def post_moves(player, directions: list[str], seq: int, retry: bool = False):
    """Moves numbered from `seq`; a `retry` sends them again as after a lost answer."""
    retried = {"retry": "1"} if retry else {}
    return player.post("/move", direction=directions, seq=str(seq), **retried)


def played(game: Game, directions: list[str]) -> tuple[Game, list[bool], int]:
    """A copy of `game` after `directions`, whether each moved, and the points they scored."""
    after, moved, points = Game.from_saved(game.to_saved()), [], 0
    for direction in directions:
        moved.append(after.move(direction))
        points += after.last_points if moved[-1] else 0
    return after, moved, points


def gained(answer) -> str:
    """The "+N" the answer shows beside the score ("" when none)."""
    return re.search(r'<span class="score-gain">(.*?)</span>\n', answer.text).group(1)


def test_a_batch_is_applied_in_order_and_answered_once_with_the_total_points(player, store):
    start = start_at(player, store, MOVES_LEFT, seed=3)
    directions = ["left", "up", "right", "down"]
    expected, moved, points = played(start, directions)
    assert all(moved) and points > expected.last_points  # so the total differs from the last's
    answer = post_moves(player, directions, 1)
    assert answer.status_code == 200 and answer.headers["X-Seq"] == "4"
    assert store.game_of(player.client).position == expected.position
    assert shown_rows(answer.text) == expected.rows
    assert shown_scores(answer.text)["moves"] == expected.moves
    assert gained(answer) == f"<span>+{points}</span>"
    assert "Moved down" in answer.text


def test_a_retried_batch_changes_nothing(player, store):
    start = start_at(player, store, MOVES_LEFT, seed=3)
    expected, _moved, _points = played(start, ["left", "up", "right"])
    post_moves(player, ["left", "up", "right"], 1)
    retry = post_moves(player, ["left", "up", "right"], 1, retry=True)
    assert retry.status_code == 200 and retry.headers["X-Seq"] == "3"
    assert store.game_of(player.client).position == expected.position
    assert shown_rows(retry.text) == expected.rows
    assert gained(retry) == ""
    past = post_moves(player, ["down", "left"], 5)  # a number past the next one
    assert past.headers["X-Seq"] == "3"
    assert store.game_of(player.client).position == expected.position


def test_a_batch_whose_first_moves_landed_applies_only_the_rest(player, store):
    start = start_at(player, store, MOVES_LEFT, seed=3)
    expected, _moved, points_after_first = played(start, ["left", "up", "right"])
    player.move("left")
    first_points = store.game_of(player.client).score
    answer = post_moves(player, ["left", "up", "right"], 1, retry=True)
    assert answer.headers["X-Seq"] == "3"
    assert store.game_of(player.client).position == expected.position
    assert gained(answer) in ("", f"<span>+{points_after_first - first_points}</span>")


def batch_from(player, store, rows, seed: int, directions: list[str]):
    """Post `directions` as one request from the position `rows`; check that the store and the
    answer's number are those of the same moves played one by one. Answers (the answer, whether
    each moved, their points, the game after them)."""
    expected, moved, points = played(start_at(player, store, rows, seed), directions)
    answer = post_moves(player, directions, 1)
    assert answer.headers["X-Seq"] == str(len(directions))
    assert store.game_of(player.client).position == expected.position
    return answer, moved, points, expected


def test_an_illegal_move_in_a_batch_uses_its_number_and_the_rest_play(player, store):
    answer, moved, points, _game = batch_from(player, store, LEFT_THEN_BLOCKED, 3,
                                              ["left", "left", "up"])
    assert moved == [True, False, True]
    assert gained(answer) == f"<span>+{points}</span>"
    assert "Moved up" in answer.text


def test_a_batch_of_blocked_moves_says_nothing_moves(player, store):
    start = start_at(player, store, LEFT_THEN_BLOCKED, seed=3)
    player.move("left")
    answer = post_moves(player, ["right", "left"], 2)
    assert answer.headers["X-Seq"] == "3"
    assert store.game_of(player.client).moves == start.moves + 1
    assert "Nothing moves left" in answer.text and gained(answer) == ""


def test_the_game_ending_in_a_batch_blocks_the_moves_after_it(player, store):
    answer, moved, _points, game = batch_from(player, store, NEAR_LOSS, 5,
                                              ["right", "left", "up"])
    assert moved == [True, False, False] and game.over
    assert "Game over" in answer.text


def test_a_win_in_a_batch_waits_for_the_players_choice(player, store):
    answer, moved, _points, _game = batch_from(player, store, NEAR_WIN, 7,
                                               ["left", "right", "down"])
    assert moved == [True, False, False]
    assert "overlay-won" in answer.text


def test_the_longest_batch_plays_and_one_more_move_is_refused(player, store):
    start_at(player, store, MOVES_LEFT, seed=3)
    before = store.read(store.sid_of(player.client))
    refused = post_moves(player, ["left", "right"] * (MAX_MOVES // 2) + ["up"], 1)
    assert refused.status_code == 400 and "Too many moves in one request" in refused.text
    assert store.read(store.sid_of(player.client)) == before
    longest = post_moves(player, ["left", "right"] * (MAX_MOVES // 2), 1)
    assert longest.status_code == 200 and longest.headers["X-Seq"] == str(MAX_MOVES)


@pytest.mark.parametrize("form", [
    {"direction": ["left", "sideways", "up"], "seq": "1"},
    {"direction": ["left", ""], "seq": "1"},
    {"direction": ["up", "LEFT"], "seq": "1"},
])
def test_a_malformed_batch_is_refused_and_changes_nothing(player, store, form):
    start_at(player, store, MOVES_LEFT, seed=3)
    before = store.read(store.sid_of(player.client))
    answer = player.post("/move", **form)
    assert answer.status_code == 400 and re.search(r'role="alert">\S', answer.text)
    assert store.read(store.sid_of(player.client)) == before


def test_each_move_of_a_batch_draws_on_the_budget(tmp_path, make_web_app, make_player,
                                                  session_store):
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="4/minute")
    store = session_store(app)
    player = make_player(app.test_client())
    start_at(player, store, MOVES_LEFT, seed=3)
    assert post_moves(player, ["left", "up", "right"], 1).status_code == 200
    before = store.read(store.sid_of(player.client))
    assert post_moves(player, ["down", "left"], 4).status_code == 429  # 3 + 2 moves of 4
    assert store.read(store.sid_of(player.client)) == before
    assert make_player(app.test_client()).move("up").status_code == 200  # others play on
