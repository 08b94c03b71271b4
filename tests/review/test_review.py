"""The solver's review: asked for by the player, run in the background, kept with the game
(also through a restart of the app), shown as the costliest moves and a chart; a game that goes
on shows that its review is of its first moves."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from engine import Game
from engine.solver import SETTINGS, Solver, default_cache_dir
from harness.live_server import LIFTED_LIMITS
from harness.player import Player
from tests.web_support import StoreView
from tests.history_support import (
    ask, play, player_at, start_a_long_review, stop_review, wait_for_review,
)
from webapp.review import WORKER
from webapp.review import model as reviews
from webapp.review.analysis import (
    JUDGEMENT_POINTS, Analysis, CostlyMove, judgement_line, review_game,
)
from webapp.review.chart import review_chart

ROW = re.compile(r'<tr data-move="(\d+)">(.*?)</tr>', re.S)


def games_review_of(app, game_id: str) -> str | None:
    """The review text the store keeps beside the game."""
    return app.extensions[WORKER].queue.review(game_id)


@pytest.fixture
def finished(player, store):
    """A short game played to its end through the routes: its directions."""
    directions = play(player, store)
    assert store.record(store.sid_of(player.client)).game.over
    return directions


def test_a_finished_game_is_reviewed_with_its_costliest_moves_and_chart(app, player, store,
                                                                          finished):
    asked = ask(player)
    assert asked.status_code == 200 and 'data-going="true"' in asked.text
    assert f'max="{len(finished)}"' in asked.text  # the progress bar of every move
    review = wait_for_review(app, player.game)
    assert review.state == reviews.DONE and review.moves == len(finished)
    page = player.client.get(f"/games/{player.game}/review").text
    assert 'data-going="false"' in page and "The review is finished." in page
    rows = ROW.findall(page)
    assert 0 < len(rows) <= 10  # docs/features.md: the ten costliest moves
    losses = [float(re.search(r'data-lost="([^"]+)"', row).group(1)) for _, row in rows]
    costly = review.analysis.costly
    assert [int(number) for number, _ in rows] == [move.number for move in costly]
    assert losses == [move.lost for move in costly] == sorted(losses, reverse=True)
    setting = SETTINGS[app.config["SOLVER_SETTING"]]  # the hint's and auto-play's
    solver = Solver(default_cache_dir(), max_searches=1)
    history = store.record(store.sid_of(player.client)).game.history
    for (number, row), lost in zip(rows, losses):
        number = int(number)
        assert f'href="/en/games/{player.game}?move={number - 1}"' in row  # where it was played
        played, best = re.findall(r'data-direction="(\w+)"', row)
        assert played == finished[number - 1] and best != played
        values = solver.evaluate_moves(Game.replay(history, number - 1).rows, setting)
        assert max(values, key=values.get) == best
        assert lost == pytest.approx((values[best] - values[played]) / values[best])
    # The network's values are the points a strong player would still score, far off the scale
    # of a game that ends early: each loss is shown as the share of the position's value it
    # gave away, and the chart's axis counts shares of the game's best-judged position.
    shown = [re.search(r'data-lost="[^"]+">([^<]+)</td>', row).group(1) for _, row in rows]
    assert all(text.startswith("−") and text.endswith("%") for text in shown)
    section = page.split('id="review"')[1].split("</section>")[0]
    assert not re.search(r"\bpoints?\b", re.sub(r"<[^>]*>", "", section))
    assert '<th scope="col">Lost</th>' in page
    ticks = re.findall(r'dominant-baseline="middle">([^<]+)</text>', page)
    assert ticks == ["0%", "50%", "100%"]
    polish = player.client.get(f"/pl/games/{player.game}/review").text
    assert re.findall(r'dominant-baseline="middle">([^<]+)</text>', polish)[-1] == "100%"
    points = re.search(r'<polyline class="chart-line" points="([^"]+)"', page).group(1).split()
    assert len(points) == min(len(finished), JUDGEMENT_POINTS)
    marks = re.findall(r'<circle class="chart-mark"[^>]*><title>Move [\d,]+: ([^<]+)</title>', page)
    assert marks == shown
    japanese = player.client.get(f"/ja/games/{player.game}/review").text
    first = re.search(r'<circle class="chart-mark"[^>]*><title>([^<]+)</title>', japanese).group(1)
    assert first == f"{costly[0].number:,}手目：{shown[0]}"  # a full-width colon
    share = review.analysis.agreed / review.moves
    assert f"The move played was the solver's own in {round(share * 100)}%" in page


def test_the_share_lost_is_the_part_of_the_solvers_value_given_away():
    game = Game.from_rows([[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    for direction in ("right", "left", "down"):
        assert game.move(direction)
    judged = iter([{"right": 100.0, "left": 100.0, "down": 50.0},  # the solver's own move
                   {"left": 40.0, "up": 100.0},  # 60% given away
                   {"down": 99.0, "up": 100.0, "right": 10.0}])  # 1%
    done = []
    analysis = review_game(game.history, 3, lambda rows: next(judged), done.append)
    assert done == [1, 2, 3] and analysis.moves == 3 and analysis.agreed == 1
    assert [(move.number, move.played, move.best, move.lost) for move in analysis.costly] == [
        (2, "left", "up", pytest.approx(0.6)), (3, "down", "up", pytest.approx(0.01))]
    assert analysis.judgement == ((0, 1.0), (1, 1.0), (2, 1.0))


def test_in_points_the_costliest_moves_are_still_those_that_gave_away_the_largest_share():
    """A 600-point game and a 60,000-point game read on one scale: 2,000 points of a position
    worth 10,000 (20%) cost less than 60 of one worth 100 (60%)."""
    game = Game.from_rows([[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    for direction in ("right", "left", "down"):
        assert game.move(direction)
    judged = iter([{"right": 500.0, "left": 1000.0},  # 500 points, half the value
                   {"left": 40.0, "up": 100.0},  # 60 points, 60%
                   {"down": 8000.0, "up": 10000.0}])  # 2,000 points, 20%
    analysis = review_game(game.history, 3, lambda rows: next(judged), lambda done: None,
                           in_points=True)
    assert [(move.number, move.lost) for move in analysis.costly] == [
        (2, pytest.approx(0.6)), (1, pytest.approx(0.5)), (3, pytest.approx(0.2))]
    assert analysis.judgement == ((0, 0.1), (1, 0.01), (2, 1.0))
    assert Analysis.from_dict(analysis.to_dict()) == analysis
    chart = review_chart(analysis)
    assert [tick.value for tick in chart.ticks] == [0.0, 0.5, 1.0]
    assert chart.marks[2].y == chart.frame.y(1.0)


def test_in_points_a_move_giving_away_less_than_a_point_is_not_listed():
    game = Game.from_rows([[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]], seed=3)
    for direction in ("right", "left", "down"):
        assert game.move(direction)
    judged = iter([{"right": 999.6, "left": 1000.0},  # 0.4 points: it would read "−0"
                   {"left": 999.0, "up": 1000.0},  # one point
                   {"down": 999.45, "up": 1000.0}])  # 0.55 points: less than one too
    analysis = review_game(game.history, 3, lambda rows: next(judged), lambda done: None,
                           in_points=True)
    assert [(move.number, move.lost) for move in analysis.costly] == [(2, pytest.approx(0.001))]
    assert analysis.agreed == 0


def test_a_review_stored_before_points_reads_as_shares():
    stored = {"moves": 1, "agreed": 0, "judgement": [[0, 1.0]],
              "costly": [{"number": 1, "played": "up", "best": "left", "lost": 0.5,
                          "judgement": 1.0}]}
    analysis = Analysis.from_dict(stored)
    assert analysis.costly == (CostlyMove(1, "up", "left", 0.5, 1.0),)
    assert [tick.value for tick in review_chart(analysis).ticks] == [0.0, 0.5, 1.0]


def test_a_review_stored_in_points_reads_with_its_judgements_as_shares():
    stored = {"moves": 2, "agreed": 1, "in_points": True,
              "judgement": [[0, 200000.0], [1, 50000.0]],
              "costly": [{"number": 2, "played": "up", "best": "left", "lost": 0.8,
                          "judgement": 50000.0, "points": 40000.0}]}
    analysis = Analysis.from_dict(stored)
    assert analysis.judgement == ((0, 1.0), (1, 0.25))
    assert analysis.costly == (CostlyMove(2, "up", "left", 0.8, 0.25),)


def test_a_game_auto_play_played_is_the_solver_s_own_at_every_move(make_web_app, tmp_path):
    """The review looks as far ahead as auto-play: on each of auto-play's moves the solver's
    move is the one played. A review one move less ahead on crowded boards first chose another
    move at move 237 of this game, and on 39 of its first 600 moves."""
    app = make_web_app(tmp_path / "instance", **LIFTED_LIMITS)  # auto-play at full speed
    player, store = Player(app.test_client()), StoreView(app)
    store.update(store.sid_of(player.client), game=Game.new(seed=7))
    for seq in range(1, 301):
        assert player.post("/solver-move", seq=str(seq)).status_code == 200
    ask(player)
    analysis = wait_for_review(app, player.game).analysis
    assert (analysis.moves, analysis.agreed, analysis.costly) == (300, 300, ())
    page = player.client.get(f"/games/{player.game}/review").text
    assert "The move played was the solver's own in 100% of the 300 positions." in page
    assert "The solver found no costly move in this game." in page


def test_the_move_that_ended_the_game_is_named(app, player, store, finished):
    """The last move of a game that is over, among the costliest, says that it ended it (in a
    word or two: the column stays narrow enough for a phone)."""
    worker = app.extensions[WORKER]
    history = store.record(store.sid_of(player.client)).game.history
    last, before = len(history), len(history) - 1
    analysis = Analysis(last, last - 2, (CostlyMove(last, finished[-1], "up", 1.0, 0.2),
                                         CostlyMove(before, finished[-2], "up", 0.5, 0.4)),
                        ((0, 1.0), (last - 1, 0.2)))
    done = reviews.Review.asked(history).finished(analysis)
    assert worker.queue.replace_review(player.game, worker.queue.review(player.game),
                                       done.to_text())
    rows = dict(ROW.findall(player.client.get(f"/games/{player.game}/review").text))
    assert "ended the game" in rows[str(last)]
    assert "ended" not in rows[str(before)]
    polish = dict(ROW.findall(player.client.get(f"/pl/games/{player.game}/review").text))
    assert "koniec gry" in polish[str(last)]


def test_the_stored_review_survives_a_restart_of_the_app(app, player, store, finished,
                                                       make_web_app, tmp_path):
    ask(player)
    wait_for_review(app, player.game)
    before = player.client.get(f"/games/{player.game}/review").text
    restarted = make_web_app(tmp_path / "instance")  # the same database file
    after = restarted.test_client().get(f"/games/{player.game}/review").text
    assert ROW.findall(after) == ROW.findall(before) and ROW.findall(after)


def test_a_game_that_goes_on_shows_its_review_is_of_its_first_moves(app, player, store):
    play(player, store, moves=12)
    ask(player)
    wait_for_review(app, player.game)
    play(player, store, moves=3)
    page = player.client.get(f"/games/{player.game}/review").text
    assert "This review covers the first 12 moves of 15." in page
    assert 'id="review-ask"' in page and "Review the whole game" in page
    again = ask(player)
    assert 'data-going="true"' in again.text
    assert wait_for_review(app, player.game).moves == 15


def test_a_review_of_moves_taken_back_and_played_otherwise_is_not_shown(app, player, store):
    first = play(player, store, moves=10)
    ask(player)
    wait_for_review(app, player.game)
    for _ in range(3):
        assert "Move taken back" in player.post("/undo", seq=str(player.seq + 1)).text
    page = player.client.get(f"/games/{player.game}/review").text
    assert "This review covers" not in page and "Review this game" in page  # 10 moves of 7?
    game = store.record(store.sid_of(player.client)).game
    otherwise = next(direction for direction in game.legal_moves() if direction != first[7])
    assert "Moved" in player.move(otherwise).text
    play(player, store, moves=2)
    page = player.client.get(f"/games/{player.game}/review").text
    assert len(store.record(store.sid_of(player.client)).game.history) == 10
    assert "data-lost" not in page and "Review this game" in page


def test_asking_for_reviews_has_its_own_budget(make_web_app, make_player, session_store, tmp_path):
    app = make_web_app(tmp_path / "instance", REVIEW_RATE_LIMIT="1/minute")
    store = session_store(app)
    player = make_player(app.test_client())
    play(player, store, moves=3)
    assert ask(player).status_code == 200
    refused = ask(player)
    assert refused.status_code == 429 and "The solver needs a short break" in refused.text
    assert 1 <= int(refused.headers["Retry-After"]) <= 61  # (its value: tests/webapp)
    assert player.move(store.record(store.sid_of(player.client)).game.legal_moves()[0]
                       ).status_code == 200  # moves are not held up by it
    wait_for_review(app, player.game)


def test_a_new_session_on_the_same_address_draws_on_the_addresss_review_budget(
        make_web_app, make_player, session_store, tmp_path):
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="100000/second",
                       REVIEW_RATE_LIMIT="1/hour", ADDRESS_BUDGET_SESSIONS=1)
    store = session_store(app)
    first, second = (make_player(app.test_client()) for _ in range(2))  # one address
    for player in (first, second):
        play(player, store, moves=3)
    assert ask(first).status_code == 200
    wait_for_review(app, first.game)  # done: only the budget (an hour: the review may take a
    # while on a busy machine) can refuse the next ask
    refused = ask(second)
    assert refused.status_code == 429 and "The solver needs a short break" in refused.text
    assert games_review_of(app, second.game) is None


def test_a_game_without_moves_cannot_be_reviewed(player):
    assert ask(player).status_code == 403
    assert 'id="review-ask"' not in player.client.get(f"/games/{player.game}/review").text


def test_asking_without_the_csrf_token_is_refused_and_starts_nothing(app, player, store):
    play(player, store, moves=3)
    refused = player.client.post(f"/games/{player.game}/review")
    assert refused.status_code == 400 and "security token" in refused.text
    assert games_review_of(app, player.game) is None


@pytest.mark.redis
def test_on_redis_any_instance_answers_the_polling_of_a_review_another_runs(
        make_web_app, make_player, session_store, tmp_path, redis_url):
    first, second = (make_web_app(tmp_path / name, SESSION_BACKEND="redis", REDIS_URL=redis_url,
                                  MOVE_RATE_LIMIT="100000/second") for name in ("a", "b"))
    player = make_player(first.test_client())
    play(player, session_store(first), moves=8)
    assert 'data-going="true"' in ask(player).text
    wait_for_review(first, player.game)
    polled = second.test_client().get(f"/games/{player.game}/review/progress")
    assert polled.status_code == 200 and 'data-going="false"' in polled.text
    assert "The move played was the solver's own in" in polled.text
    listed = second.test_client()
    listed.set_cookie("session", session_store(first).sid_of(player.client))
    assert f'data-game="{player.game}"' in listed.get("/games").text


def test_reviews_run_on_one_thread_of_the_apps_own_at_a_lower_priority(app, player, store):
    play(player, store, moves=4)
    ask(player)
    wait_for_review(app, player.game)
    worker = app.extensions[WORKER]
    reviewer = worker.thread
    assert reviewer.name == "reviewer" and reviewer.is_alive()
    ask(player)  # another ask (nothing new to review) starts no second thread
    worker.start()  # nor does starting it again
    assert worker.thread is reviewer
    niceness = int(Path(f"/proc/self/task/{reviewer.native_id}/stat").read_text()
                   .rsplit(")", 1)[1].split()[16])
    assert niceness == min(os.getpriority(os.PRIO_PROCESS, 0) + 10, 19)  # 10 above, as documented


@pytest.mark.parametrize("moves", [1, 239, 240, 241, 252, 479, 20_000])
def test_the_judgement_line_draws_each_of_its_stretches_at_its_lowest(moves):
    shares = [((move * 7919) % 1009) / 1009 for move in range(moves)]
    line = judgement_line(shares)
    assert len(line) == min(moves, JUDGEMENT_POINTS)
    numbers = [number for number, _share in line]
    assert numbers == sorted(set(numbers)) and numbers[-1] < moves
    bounds = [0, *(number + 1 for number in numbers[:-1])]  # each stretch starts after a point
    for (number, share), first in zip(line, bounds):
        assert share == round(shares[number], 6)
        assert all(shares[move] >= shares[number] for move in range(first, number + 1))


def test_a_full_queue_is_a_busy_answer_that_writes_nothing(make_web_app, make_player,
                                                            session_store, tmp_path):
    app = make_web_app(tmp_path / "instance", MOVE_RATE_LIMIT="100000/second")
    store = session_store(app)
    busy = player_at(app, make_player, "198.51.100.1")
    start_a_long_review(app, busy)  # from now on the others wait
    queued = []
    for address in range(8):  # docs/features.md: "at most 8 wait"
        waiting = player_at(app, make_player, f"192.0.2.{address + 1}")
        play(waiting, store, moves=3)
        assert ask(waiting).status_code == 200  # the positive control: these are taken
        queued.append(waiting)
    refused = player_at(app, make_player, "192.0.2.100")
    play(refused, store, moves=3)
    answer = ask(refused)
    assert answer.status_code == 503 and 1 <= int(answer.headers["Retry-After"]) <= 60
    assert "The solver is busy with other reviews" in answer.text
    assert games_review_of(app, refused.game) is None  # nothing was written for it

    stop_review(app, busy.game)  # the thread gives the long one up and takes the others
    for waiting in queued:
        assert wait_for_review(app, waiting.game).state == reviews.DONE
    assert ask(refused).status_code == 200
    assert wait_for_review(app, refused.game).state == reviews.DONE


def test_without_script_a_form_asks_and_the_page_reloads_itself_while_the_review_runs(
        app, player, store):
    play(player, store, moves=5)
    queue, page = app.extensions[WORKER].queue, f"/en/games/{player.game}/review"
    form = player.client.get(page).text
    assert f'<form method="post" action="{page}"' in form
    assert 'name="csrf_token"' in form and 'http-equiv="refresh"' not in form
    asked = reviews.Review.asked(store.record(store.sid_of(player.client)).game.history)
    running = reviews.Review(asked.moves, asked.digest, reviews.RUNNING, done=2,
                             updated=time.time())
    assert queue.replace_review(player.game, None, running.to_text())  # as another worker would
    assert '<noscript><meta http-equiv="refresh" content="3"' in player.client.get(page).text
    assert queue.replace_review(player.game, running.to_text(), running.failed().to_text())

    sent = player.client.post(page, data={"csrf_token": player.token},
                              headers={"Sec-Fetch-Mode": "navigate"})  # the form, sent by hand
    assert sent.status_code == 303 and sent.headers["Location"] == page
    assert wait_for_review(app, player.game).state == reviews.DONE
    assert 'http-equiv="refresh"' not in player.client.get(page).text
