"""The view an answer about a game is drawn from (webapp.game.view): what it says is decided
there once, so these tests read the view, not the HTML."""

import pytest
from flask import render_template

from engine import Game
from webapp import days
from webapp.game.best_score import BestScores
from webapp.game.view import Shortcut, game_view, hint
from webapp.store.game_record import GameRecord

NO_BEST = BestScores(0, 0)
GAME_ID = "g" * 22
#: One merge to the left on the top row (2+2), the rest slides.
MERGING = [[2, 2, 0, 0], [0, 0, 0, 4], [0, 0, 0, 0], [0, 0, 0, 0]]
OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


@pytest.fixture
def english(app):
    with app.test_request_context("/en/"):
        yield


def record_of(game: Game, assisted: bool = False) -> GameRecord:
    return GameRecord(GAME_ID, game, assisted=assisted)


def view_of_record(record: GameRecord, event: str, *args, best: BestScores = NO_BEST,
                   **kwargs):
    """The view of `record` after `event`, dated as the app dates it."""
    return game_view(record, event, best, days.day_of(record), *args, **kwargs)


def daily_record(rows: list[list[int]], score: int = 0) -> GameRecord:
    """A game of the day its record was created on."""
    record = record_of(Game.from_rows(rows, score=score, seed=1))
    record.day = days.day_at(record.created)
    return record


def test_the_network_s_hint_ranks_best_first_with_ties_and_whole_points_given_away(english):
    shown = hint({"down": 90.5, "left": 100.4, "right": 100.0, "up": 97.5}, in_points=True)
    assert (shown.direction, shown.arrow, str(shown.suggestion)) == (
        "left", "←", "The solver suggests: left")
    assert str(shown.note) == "The expected points each other move gives away against the best:"
    assert [(row.direction, str(row.text), row.tie) for row in shown.rows] == [
        ("left", "left: best move", False),
        ("right", "right: as good as the best", True),
        ("up", "up: −3 points", False),  # 2.9 behind
        ("down", "down: −10 points", False),
    ]


def test_the_heuristic_s_hint_says_only_close_or_risky(english):
    # Heuristic values carry a large offset: 1% of the best given away is risky.
    shown = hint({"down": 9_850_000.0, "left": 10_000_000.0, "right": 10_000_000.0,
                  "up": 9_990_000.0}, in_points=False)
    assert str(shown.note) == "How each other move compares with the best:"
    assert [(row.direction, str(row.text), row.tie) for row in shown.rows] == [
        ("left", "left: best move", False),
        ("right", "right: as good as the best", True),
        ("up", "up: close to the best", False),  # 0.1% given away
        ("down", "down: risky", False),  # 1.5%
    ]


@pytest.mark.parametrize("lang, one, few", [("pl", "−1 punkt", "−2 punkty"),
                                            ("ja", "−1点", "−2点")])
def test_the_points_given_away_are_written_the_reader_s_way(app, lang, one, few):
    with app.test_request_context(f"/{lang}/"):
        shown = hint({"left": 50000.0, "up": 37660.0, "down": 49999.0, "right": 49998.0},
                     in_points=True)
        texts = [str(row.text) for row in shown.rows]
        four_digits = hint({"left": 5000.0, "up": 3766.0}, in_points=True).rows[1].text
    assert texts[1].endswith(one) and texts[2].endswith(few)
    if lang == "pl":  # digits grouped from five on: 12 340 but 1234
        assert texts[3].endswith("−12\xa0340 punktów") and str(four_digits).endswith("−1234 punkty")


def test_no_legal_move_is_a_hint_without_a_choice(english):
    view = view_of_record(record_of(Game.from_rows(OVER, seed=1)), "hinted", values={})
    assert view.hint.direction is None and view.hint.rows == ()
    assert str(view.announcement) == f"Game over. Final score: {view.score}."


def test_a_game_is_in_progress_once_moved_and_until_it_is_over(english):
    game = Game.from_rows(MERGING, seed=1)
    assert view_of_record(record_of(game), "loaded").in_progress is False
    assert game.move("left")
    moved = view_of_record(record_of(game), "moved", "left", game.last_points)
    assert (moved.status, moved.in_progress, moved.gained) == ("playing", True, 4)
    assert str(moved.announcement) == f"Moved left. Score: {game.score}."
    assert view_of_record(record_of(game), "undone", points=4).gained == 0
    over = view_of_record(record_of(Game.from_rows(OVER, seed=1)), "loaded")
    assert (over.status, over.in_progress) == ("over", False)


def test_a_merge_draws_the_two_tiles_leaving_before_the_tile_they_made(english):
    game = Game.from_rows(MERGING, seed=1)
    game.move("left")
    tiles = view_of_record(record_of(game), "moved", "left").board.tiles
    merged = next(index for index, tile in enumerate(tiles) if tile.merged)
    assert [tile.leaving for tile in tiles[merged - 2:merged + 1]] == [True, True, False]
    assert [tile.value for tile in tiles[merged - 2:merged + 1]] == [2, 2, 4]
    slid = next(tile for tile in tiles if tile.value == 4 and not tile.merged)
    assert (slid.row, slid.col, slid.origin) == (1, 0, (1, 3))
    assert sum(tile.new for tile in tiles) == 1


def test_each_event_has_its_sentence(english):
    game = Game.from_rows(MERGING, seed=1)
    sentences = {event: str(view_of_record(record_of(game), event, "up").announcement)
                 for event in ("blocked", "new", "nothing-to-undo", "repeated", "hinted")}
    assert sentences == {"blocked": "Nothing moves up.", "new": "New game started.",
                         "nothing-to-undo": "There is no move to take back.", "repeated": "",
                         "hinted": "No move is possible."}


def test_the_buttons_key_hints_come_from_the_bindings(english):
    view = view_of_record(record_of(Game.new(seed=1)), "loaded")
    assert view.shortcuts["undo"] == Shortcut("U Control+Z", "U, Ctrl+Z")
    assert view.shortcuts["hint"].aria == "Shift+H"
    assert view.shortcuts["autoplay"].aria == "Shift+A"
    assert view.other_game and not view_of_record(record_of(Game.new(seed=1)), "moved",
                                                  "up").other_game


def test_only_a_finished_game_played_without_help_is_offered_the_records(english):
    finished = record_of(Game.from_rows(OVER, seed=1))
    assert view_of_record(finished, "loaded").may_enter_leaderboard
    assisted = record_of(Game.from_rows(OVER, seed=1), assisted=True)
    assert not view_of_record(assisted, "loaded").may_enter_leaderboard
    assert not view_of_record(record_of(Game.from_rows(MERGING, seed=1)),
                              "loaded").may_enter_leaderboard


def test_a_daily_game_offers_no_new_game_and_asks_its_own_route_for_its_state(english):
    ordinary = view_of_record(record_of(Game.from_rows(OVER, seed=1)), "loaded")
    assert ordinary.can_start_new and ordinary.state_url == "/en/state"
    daily = view_of_record(daily_record(OVER), "loaded")
    assert daily.day is not None and not daily.can_start_new
    assert daily.state_url == "/en/daily/state"


def test_the_share_text_names_the_best_tile_the_score_and_a_daily_game_s_day(english):
    view = view_of_record(record_of(Game.from_rows(OVER, score=12346, seed=1)), "loaded")
    assert str(view.share_text) == "2048: best tile 4, 12,346 points"
    daily = view_of_record(daily_record(OVER, score=2), "loaded")
    day = f"{daily.day:%B} {daily.day.day}, {daily.day.year}"  # as English writes a date
    assert str(daily.share_text) == f"2048, the daily game of {day}: best tile 4, 2 points"


def test_the_best_score_without_help_is_drawn_in_the_element_the_script_updates(english):
    view = view_of_record(record_of(Game.new(seed=1)), "loaded", best=BestScores(50, 12))
    scores = render_template("partials/scores.html", view=view)
    assert 'Best without help: <span id="best-unassisted">12</span>' in scores
