"""The daily game: one start for everyone each day, each game's later tiles its own, a game of
the browser's own beside its ordinary one, seeds nobody sees, and a replay only its player may
watch before the day ends."""

import re
from datetime import date, datetime, timezone

import pytest

from webapp import days

MOVES = ("left", "up", "right", "down", "left", "left", "up", "right") * 3
#: The moves a player tries, in this order.
PREFERENCE = ("down", "left", "right", "up")


def stored(store, game_id):
    return store.games.get(game_id)


def test_every_daily_game_of_a_day_starts_from_the_days_opening(app, store, clock, make_player):
    first, second = (make_player(app.test_client(), "/daily") for _ in range(2))
    assert first.game != second.game
    records = [stored(store, player.game) for player in (first, second)]
    assert records[0].game.rows == records[1].game.rows
    today = days.day_at(clock.now)
    with app.app_context():
        opening = days.opening_seed(today)
    assert [record.day for record in records] == [today, today]
    assert len({opening, *(record.game.seed for record in records)}) == 3  # each its own


def test_a_scout_playing_the_players_moves_sees_the_players_board_no_more_often_than_chance(
        app, store, make_player):
    """A second browser on the daily page (a scout) plays every move the player makes. With
    the day's tiles shared, its board was the player's after every move, so it could try a move,
    read the tile it brought and take it back before the player chose. Now each new tile is the
    game's own: a scout's tile lands where the player's does, with the same value, about once
    in 15 (1 / the empty cells x 0.82), and the boards then stay apart."""
    real = make_player(app.test_client(), "/daily")
    scouts = [make_player(app.test_client(), "/daily") for _ in range(4)]
    same_boards = 0
    for _ in range(25):
        legal = stored(store, real.game).game.legal_moves()
        direction = next(d for d in PREFERENCE if d in legal)
        assert real.move(direction).status_code == 200
        board = stored(store, real.game).game.rows
        for scout in scouts:
            scout.move(direction)
            same_boards += stored(store, scout.game).game.rows == board
    assert same_boards <= 2, f"the scouts' board was the player's after {same_boards} of 100 moves"


def test_a_move_taken_back_in_a_daily_game_brings_the_same_tile_again(daily_player, store):
    assert daily_player.move("left").status_code == 200
    after = stored(store, daily_player.game).game.position
    assert daily_player.post("/undo", seq=str(daily_player.seq + 1)).status_code == 200
    assert daily_player.move("left").status_code == 200
    assert stored(store, daily_player.game).game.position == after


def test_the_next_day_deals_another_start_and_the_ordinary_games_their_own(
        app, store, clock, make_player):
    today = make_player(app.test_client(), "/daily")
    ordinary = make_player(app.test_client())
    clock.now = days.day_end(days.day_at(clock.now))
    tomorrow = make_player(app.test_client(), "/daily")
    starts = [stored(store, player.game).game.position for player in (today, ordinary, tomorrow)]
    assert starts[0] != starts[1] and starts[0] != starts[2]


def test_the_days_opening_is_the_keyed_hash_of_the_date(app, make_web_app, tmp_path, clock):
    other_key = make_web_app(tmp_path / "other", SECRET_KEY="another key", CLOCK=clock)
    with app.app_context():
        day = days.today()
        seeds = {days.opening_seed(day),
                 days.opening_seed(day.replace(day=1) if day.day > 1 else day.replace(day=2))}
    with other_key.app_context():
        seeds.add(days.opening_seed(day))
    assert len(seeds) == 3 and all(0 <= seed < 2**64 for seed in seeds)


def test_a_day_ends_at_the_next_midnight_utc():
    assert days.day_end(date(2026, 12, 5)) == 1796515200.0  # 2026-12-06T00:00:00Z
    assert days.day_at(1796515200.0 - 0.001) == date(2026, 12, 5)
    assert days.day_at(1796515200.0) == date(2026, 12, 6)


def test_the_daily_game_never_replaces_the_ordinary_one(client, make_player, store):
    ordinary = make_player(client)
    daily = make_player(client, "/daily")
    assert daily.game != ordinary.game
    assert ordinary.move("left").status_code == 200 and daily.move("up").status_code == 200
    assert ordinary.move("right").status_code == 200  # both pages play on, in one session
    assert make_player(client).game == ordinary.game
    assert make_player(client, "/daily").game == daily.game
    assert stored(store, ordinary.game).game.history.directions() == ("left", "right")
    assert stored(store, daily.game).game.history.directions() == ("up",)


def test_the_page_says_which_day_it_is_in_the_players_language_and_links_back(client, clock):
    day = days.day_at(clock.now)
    english, polish = client.get("/daily").text, client.get("/pl/daily").text
    assert f"{day:%B} {day.day}, {day.year}" in english
    assert "the same start for everyone today" in english
    assert re.search(r'<a href="/pl/">[^<]+</a></p>', polish)
    assert 'id="new-game"' not in english  # a daily game is played once


def test_the_daily_pages_best_is_the_daily_games_and_the_game_pages_the_ordinary_ones(
        client, make_player):
    """The bests are kept per kind of game: an ordinary best of 4,000 is not the daily page's
    Best, which comes from the daily games' own keys (cookie and storage), and moves on a daily
    game answer with that Best."""
    client.set_cookie("best", "4000")
    client.set_cookie("best_unassisted", "3000")
    best = re.compile(r'id="best" class="score-value">([^<]*)<')
    assert best.search(client.get("/en/daily").text).group(1) == "0"
    client.set_cookie("best_daily", "300")
    daily_page = client.get("/en/daily").text
    assert best.search(daily_page).group(1) == "300"
    assert '"kept": {"best": "best_daily", "best-unassisted": "best_daily_unassisted"}' in (
        daily_page)
    assert best.search(make_player(client, "/daily").move("up").text).group(1) == "300"
    game_page = client.get("/en/").text
    assert best.search(game_page).group(1) == "4,000"
    assert '"kept": {"best": "best", "best-unassisted": "best_unassisted"}' in game_page


@pytest.mark.slow
def test_no_seed_appears_in_any_answer_before_the_day_is_over(app, daily_player, clock, store):
    answers = [daily_player.page]
    for direction in MOVES:
        answers.append(daily_player.move(direction))
    client, game = daily_player.client, daily_player.game
    answers += [client.get(f"/daily/state?game={game}"), client.get(f"/games/{game}"),
                client.get(f"/games/{game}/position?move=3&from=2"),
                client.get(f"/games/{game}/review"), client.get("/games"),
                daily_player.post("/hint"), daily_player.post("/undo", seq=str(daily_player.seq + 1))]
    assert all(answer.status_code == 200 for answer in answers)
    with app.app_context():
        seeds = (days.opening_seed(days.today()), stored(store, game).game.seed)
    forms = [form for seed in seeds for form in (str(seed), f"{seed:x}", f"{seed:X}")]
    for answer in answers:
        seen = answer.get_data(as_text=True) + str(answer.headers)
        assert not any(form in seen for form in forms)


def test_a_daily_replay_is_its_players_only_until_the_day_is_over_and_says_when_it_opens(
        app, daily_player, clock):
    for direction in MOVES[:4]:
        daily_player.move(direction)
    game = daily_player.game
    pages = (f"/games/{game}", f"/games/{game}/position?move=2", f"/games/{game}/review",
             f"/games/{game}/review/progress", f"/pl/games/{game}")
    stranger = app.test_client()
    end = datetime.fromtimestamp(days.day_end(days.day_at(clock.now)), timezone.utc)
    for page in pages:
        assert daily_player.client.get(page).status_code == 200
        refused = stranger.get(page)
        assert refused.status_code == 403 and "<html" in refused.text
    english, polish = stranger.get(pages[0]).text, stranger.get(pages[-1]).text
    assert "opens to everyone at" in english and f"{end:%B} {end.day}, {end.year}" in english
    assert "będzie dostępna dla wszystkich od" in polish
    clock.now = end.timestamp() - 0.001
    assert stranger.get(pages[0]).status_code == 403
    clock.now += 0.001
    for page in pages:
        assert stranger.get(page).status_code == 200


def test_the_next_day_the_player_gets_its_game_and_keeps_the_last_ones(
        client, daily_player, clock):
    daily_player.move("left")
    yesterday = daily_player.game
    clock.now = days.day_end(days.day_at(clock.now)) + 5
    today = daily_player.__class__(client, "/daily")
    assert today.game != yesterday
    listed = client.get("/games").text
    assert f"/games/{yesterday}" in listed
    assert daily_player.move("up").status_code == 409  # yesterday's page: the game moved on


def test_an_ordinary_replay_stays_open_to_anyone_played_or_not(app, player):
    stranger = app.test_client()
    assert stranger.get(f"/games/{player.game}").status_code == 200
    player.move("left")
    assert stranger.get(f"/games/{player.game}").status_code == 200
