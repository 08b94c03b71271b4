"""Undo through the routes: it takes the last move back exactly, numbered like a move, so it can
neither fish for a better tile nor be applied twice; it takes a win back and marks the game as
assisted."""

from __future__ import annotations

from engine import Game
from tests.board_html import shown_rows, shown_scores, tiles_drawn

EMPTY = [0, 0, 0, 0]


def stored(store, player) -> Game:
    return store.game_of(player.client)


def start_at(player, store, rows, seed: int, score: int = 0) -> None:
    game = Game.from_rows(rows, seed=seed, score=score)
    store.update(store.sid_of(player.client), game=game)


def undo(player):
    return player.post("/undo", seq=str(player.seq + 1))


def new_tile(html: str) -> dict[str, str]:
    (tile,) = [tile for tile in tiles_drawn(html) if "new" in tile]
    return {name: tile[name] for name in ("value", "row", "col")}


def test_the_same_move_after_an_undo_brings_the_same_tile_on_the_same_cell(player, store):
    start_at(player, store, [[2, 0, 0, 2], EMPTY, [0, 4, 0, 0], EMPTY], seed=11)
    for _ in range(5):  # every time, not by luck
        first = player.move("left")
        assert first.status_code == 200 and "Moved left" in first.text
        after = stored(store, player).position
        undone = undo(player)
        assert undone.status_code == 200 and "Move taken back" in undone.text
        again = player.move("left")
        assert new_tile(again.text) == new_tile(first.text)
        assert shown_rows(again.text) == shown_rows(first.text)
        assert stored(store, player).position == after
        player.move("right")  # go on, so the next round undoes another spawn


def test_undo_returns_board_score_and_move_counter_back_to_the_start(player, store):
    start = stored(store, player)
    played = []
    for direction in ("left", "up", "right", "down", "left", "up"):
        if player.move(direction).status_code == 200 and stored(store, player).moves > len(played):
            played.append(stored(store, player).position)
    assert len(played) >= 3
    for expected in reversed([start.position, *played[:-1]]):
        answer = undo(player)
        assert stored(store, player).position == expected
        assert shown_rows(answer.text) == expected.rows
        shown = shown_scores(answer.text)
        assert (shown["moves"], shown["score"]) == (expected.moves, expected.score)
    at_start = undo(player)
    assert at_start.status_code == 200 and "There is no move to take back" in at_start.text
    assert at_start.headers["X-Seq"] == str(player.seq)  # its number is used up, like a blocked move
    assert stored(store, player).position == start.position


def test_undoing_the_winning_merge_takes_the_win_back_and_the_next_2048_asks_again(player, store):
    start_at(player, store, [[1024, 1024, 0, 0], EMPTY, EMPTY, [2, 0, 0, 0]], seed=7)
    won = player.move("left")
    assert won.headers["X-Status"] == "won" and "You made 2048!" in won.text
    undone = undo(player)
    assert undone.headers["X-Status"] == "playing" and "You made 2048!" not in undone.text
    assert not stored(store, player).won
    again = player.move("left")
    assert again.headers["X-Status"] == "won" and "You made 2048!" in again.text


def test_an_undo_marks_the_game_assisted_so_the_best_without_help_ignores_it(player, store):
    player.client.set_cookie("best", "10")
    player.client.set_cookie("best_unassisted", "10")
    start_at(player, store, [[2, 2, 0, 0], EMPTY, EMPTY, [0, 0, 0, 4]], seed=3, score=100)
    moved = player.move("left")
    assert 'id="assisted"' not in moved.text
    assert shown_scores(moved.text) == {"score": 104, "best": 104, "moves": 1, "best-unassisted": 104}
    undone = undo(player)
    assert 'id="assisted"' in undone.text
    assert shown_scores(undone.text) == {"score": 100, "best": 100, "moves": 0, "best-unassisted": 10}
    assert store.read(store.sid_of(player.client))["assisted"] is True
    again = player.move("left")  # still assisted: it counts for the best score only
    assert shown_scores(again.text) == {"score": 104, "best": 104, "moves": 1, "best-unassisted": 10}


def test_a_retried_undo_is_applied_once(player, store):
    start_at(player, store, [[0, 0, 0, 2], EMPTY, EMPTY, [0, 0, 0, 4]], seed=5)
    assert "Moved left" in player.move("left").text and "Moved up" in player.move("up").text
    history = store.record(store.sid_of(player.client)).game.history
    after_one = Game.replay(history, 1).position
    seq = str(player.seq + 1)
    first = player.post("/undo", seq=seq)
    retry = player.post("/undo", seq=seq, retry="1")  # the same again: its answer got lost
    assert first.headers["X-Seq"] == retry.headers["X-Seq"] == seq
    assert "Move taken back" not in retry.text
    assert stored(store, player).position == after_one


def test_an_undo_without_a_valid_move_number_is_refused_and_changes_nothing(player, store):
    player.move("left")
    before = store.read(store.sid_of(player.client))
    for seq in ("", "-1", "x"):
        assert player.post("/undo", seq=seq).status_code == 400
    assert store.read(store.sid_of(player.client)) == before
