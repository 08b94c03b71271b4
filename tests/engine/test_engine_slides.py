"""The slides a page plays before the server's answer: for every legal direction, where each
tile goes and what each merge makes, agreeing with the move the game then plays."""

from hypothesis import given
from hypothesis import strategies as st

import engine
from engine import Game
from tests.engine.reference_2048 import playable_boards

directions = st.sampled_from(engine.DIRECTIONS)


def slid_rows(rows, slide):
    """The board `slide` leads to, read off the slide alone."""
    cells = [0] * 16
    for cell, destination in enumerate(slide.destinations):
        if destination is not None:
            assert cells[destination] in (0, rows[cell // 4][cell % 4])  # a pair of equals
            cells[destination] = rows[cell // 4][cell % 4]
    for cell, value in slide.merged:
        cells[cell] = value
    return tuple(tuple(cells[row * 4:row * 4 + 4]) for row in range(4))


@given(playable_boards, directions)
def test_a_slide_leads_where_the_move_goes_without_its_new_tile(rows, direction):
    game = Game.from_rows(rows, seed=1)
    slides = game.slides()
    assert set(slides) == set(game.legal_moves())
    if direction not in slides:
        return
    slide = slides[direction]
    assert slid_rows(rows, slide) == engine.slide(rows, direction)[0]
    assert sum(value for _, value in slide.merged) == engine.slide(rows, direction)[1]
    empty = [cell for cell in range(16) if not rows[cell // 4][cell % 4]]
    assert [slide.destinations[cell] for cell in empty] == [None] * len(empty)


@given(playable_boards, directions)
def test_the_tiles_of_the_move_come_from_where_the_slide_said(rows, direction):
    game = Game.from_rows(rows, seed=1)
    slide = game.slides().get(direction)
    if slide is None:
        return
    game.move(direction)
    for tile in game.tiles:
        parts = tile.merged_from or ((tile,) if tile.previous else ())
        for part in parts:
            assert slide.destinations[part.previous[0] * 4 + part.previous[1]] == tile.row * 4 + tile.col


def test_a_won_game_awaiting_the_players_choice_has_no_slides():
    game = Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]], seed=7)
    assert set(game.slides()) == set(engine.DIRECTIONS)
    game.move("left")
    assert game.slides() == {}
    game.keep_playing()
    assert game.slides()


def test_a_finished_game_has_no_slides():
    over = Game.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]], seed=1)
    assert over.slides() == {}
