"""The slides an answer carries so the page moves the tiles at once (where each tile goes in each
legal direction, from the engine, written on the board; never the coming tile), each move of an
answer of several, and presses refused as stale when the game moved on before their first try."""

import re

from engine import Game
from tests.board_html import shown_rows

MOVES_LEFT = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]
NEAR_WIN = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0]]
OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def board_attribute(html: str, name: str) -> str | None:
    found = re.search(rf'<div id="board"[^>]* data-{name}="([^"]*)"', html)
    return found and found.group(1)


def start_at(player, store, rows, seed: int) -> Game:
    store.update(store.sid_of(player.client), game=Game.from_rows(rows, seed=seed))
    return store.game_of(player.client)


def test_the_page_and_each_answer_carry_the_slides_of_the_board_they_show(player, store):
    start_at(player, store, MOVES_LEFT, seed=3)
    page = player.client.get("/").text
    # 2 2 . . / . . . . / . . . . / . . . 4: left merges the 2s on cell 0 and takes the 4 to 12.
    slides = dict(entry.split(":", 1) for entry in board_attribute(page, "slides").split())
    assert slides["left"] == "00.............c:04"
    assert slides["right"] == "33.............f:34"
    assert slides["up"] == "01.............3:"
    assert slides["down"] == "cd.............f:"
    answer = player.move("left")
    after = store.game_of(player.client)
    written = dict(entry.split(":", 1) for entry in board_attribute(answer.text, "slides").split())
    assert set(written) == set(after.legal_moves())
    assert board_attribute(answer.text, "steps") is None  # one move: the page drew it already


def test_the_slides_tell_nothing_of_the_coming_tile(player, store):
    """Two games on the same board with different seeds (different coming tiles): the same
    slides."""
    written = []
    for seed in (1, 2):
        start_at(player, store, MOVES_LEFT, seed=seed)
        written.append(board_attribute(player.client.get("/").text, "slides"))
    assert written[0] == written[1]


def test_a_won_game_waiting_for_the_players_choice_and_a_finished_one_have_no_slides(
        player, store):
    start_at(player, store, NEAR_WIN, seed=7)
    won = player.move("left")
    assert won.headers["X-Status"] == "won" and board_attribute(won.text, "slides") is None
    start_at(player, store, OVER, seed=1)
    assert board_attribute(player.client.get("/").text, "slides") is None


def test_an_answer_of_several_moves_carries_each_move_and_its_new_tile(player, store):
    start = start_at(player, store, MOVES_LEFT, seed=3)
    answer = player.post("/move", direction=["left", "up", "right"], seq="1")
    steps = board_attribute(answer.text, "steps").split()
    assert [step.split(":")[0] for step in steps] == ["left", "up", "right"]
    first = steps[0].split(":")
    assert first[1:3] == ["00.............c", "04"]
    game = start
    for step in steps:
        direction, _cells, _merged, new = step.split(":")
        game.move(direction)
        spawned = next(tile for tile in game.tiles if tile.is_new)
        assert new == f"{spawned.row * 4 + spawned.col:x}{spawned.value}"
    assert shown_rows(answer.text) == game.rows


def test_a_used_number_on_a_first_try_is_refused_as_stale_and_plays_nothing(player, store):
    """Another tab played move 1; this tab, still showing the start, presses: its press is not
    played on a board its player never saw, and the answer says so and shows the game now."""
    start_at(player, store, MOVES_LEFT, seed=3)
    player.move("left")
    after_other_tab = store.read(store.sid_of(player.client))
    stale = player.post("/move", direction=["down", "right"], seq="1")
    assert stale.status_code == 409 and "X-Stale" not in stale.headers
    assert stale.headers["X-Seq"] == "1"
    assert "moved on in another tab" in stale.text
    assert shown_rows(stale.text) == store.game_of(player.client).rows
    assert store.read(store.sid_of(player.client)) == after_other_tab
    undo = player.post("/undo", seq="1")
    assert undo.status_code == 409 and store.read(store.sid_of(player.client)) == after_other_tab
    solver = player.post("/solver-move", seq="1")
    assert solver.status_code == 409 and store.read(store.sid_of(player.client)) == after_other_tab
