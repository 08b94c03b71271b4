"""The view a review's part of its page is drawn from (webapp.review.view): whether it is going
on, what it found and whether this browser may ask for it are decided there, so these tests read
the view, not the HTML."""

import random

import pytest

from engine import Game
from webapp.review.analysis import Analysis, CostlyMove
from webapp.review.model import Review, digest
from webapp.review.view import review_view
from webapp.store.game_record import GameRecord

MOVES = 12


@pytest.fixture
def english(app):
    with app.test_request_context("/en/"):
        yield


@pytest.fixture
def record() -> GameRecord:
    """A game of MOVES random legal moves."""
    game, choose = Game.new(seed=4), random.Random(4)
    while game.moves < MOVES:
        assert game.move(choose.choice(game.legal_moves()))
    return GameRecord("r" * 22, game)


def finished(record: GameRecord, moves: int) -> Review:
    """A finished review of the game's first `moves` moves, one of them costly."""
    history = record.game.history
    played = history.directions()[0]
    best = next(direction for direction in ("up", "down", "left", "right") if direction != played)
    analysis = Analysis(moves, moves - 1, (CostlyMove(1, played, best, 0.25, 0.5),),
                        tuple((number, 1.0) for number in range(moves)))
    return Review(moves, digest(history, moves), "queued").finished(analysis)


def test_the_player_may_ask_for_a_game_with_no_review_and_no_one_else_may(english, record):
    mine, theirs = review_view(record, None, owned=True), review_view(record, None, owned=False)
    assert (mine.can_ask, theirs.can_ask) == (True, False)
    assert (mine.going, mine.analysis, str(mine.announcement)) == (False, None, "")


def test_a_review_going_on_cannot_be_asked_for_again(english, record):
    asked = Review.asked(record.game.history)
    queued = review_view(record, asked, owned=True)
    assert (queued.going, queued.queued, queued.can_ask) == (True, True, False)
    assert str(queued.announcement) == "The review has started."
    running = review_view(record, asked.progressed(3), owned=True)
    assert (running.queued, running.done, running.moves, running.progress) == (
        False, 3, MOVES, 3 / MOVES)


def test_a_finished_review_of_every_move_cannot_be_asked_for_again(english, record):
    view = review_view(record, finished(record, MOVES), owned=True)
    assert (view.going, view.partial, view.can_ask) == (False, False, False)
    assert view.agreed == (MOVES - 1) / MOVES
    assert str(view.announcement) == "The review is finished."
    (costly,) = view.costly
    assert (costly.number, costly.played_shown.arrow, costly.lost) == (
        1, {"up": "↑", "down": "↓", "left": "←", "right": "→"}[costly.played], 0.25)
    assert view.chart is not None


def test_a_review_of_the_first_moves_may_be_asked_for_the_whole_game(english, record):
    view = review_view(record, finished(record, MOVES - 4), owned=True)
    assert (view.partial, view.can_ask, view.moves, view.total) == (True, True, MOVES - 4, MOVES)


def test_a_review_of_moves_taken_back_since_shows_as_none(english, record):
    review = finished(record, MOVES)
    last = record.game.history.directions()[-1]
    assert record.game.undo()
    assert record.game.move(next(d for d in record.game.legal_moves() if d != last))
    view = review_view(record, review, owned=True)
    assert (view.analysis, view.moves, view.can_ask) == (None, 0, True)


def test_a_failed_review_may_be_asked_for_again(english, record):
    view = review_view(record, Review.asked(record.game.history).failed(), owned=True)
    assert (view.failed, view.going, view.can_ask) == (True, False, True)
