"""The daily game: one start for everyone each day, a game of the browser's own beside its
ordinary one, a seed nobody sees, and a replay only its player may watch before the day ends."""

import re

from webapp.daily import days

MOVES = ("left", "up", "right", "down", "left", "left", "up", "right") * 3


def stored(store, game_id):
    return store.games.get(game_id)


def test_two_players_get_the_same_start_and_the_same_tiles_for_the_same_moves(
        app, store, make_player):
    first, second = (make_player(app.test_client(), "/daily") for _ in range(2))
    assert first.game != second.game
    assert stored(store, first.game).game.rows == stored(store, second.game).game.rows
    for direction in MOVES:
        assert first.move(direction).status_code == 200
        assert second.move(direction).status_code == 200
        assert stored(store, first.game).game.to_dict() == stored(store, second.game).game.to_dict()
    assert stored(store, first.game).game.moves > 10


def test_the_next_day_deals_another_start_and_the_ordinary_games_their_own(
        app, store, clock, make_player):
    today = make_player(app.test_client(), "/daily")
    ordinary = make_player(app.test_client())
    clock.now = days.day_end(days.day_at(clock.now))
    tomorrow = make_player(app.test_client(), "/daily")
    starts = [stored(store, player.game).game.to_dict() for player in (today, ordinary, tomorrow)]
    assert starts[0] != starts[1] and starts[0] != starts[2]


def test_the_seed_is_the_keyed_hash_of_the_date(app, make_web_app, tmp_path, clock):
    other_key = make_web_app(tmp_path / "other", SECRET_KEY="another key", CLOCK=clock)
    with app.app_context():
        day = days.today()
        seeds = {days.seed(day), days.seed(day.replace(day=1) if day.day > 1 else day.replace(day=2))}
    with other_key.app_context():
        seeds.add(days.seed(day))
    assert len(seeds) == 3 and all(0 <= seed < 2**64 for seed in seeds)


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
    assert "the same tiles for everyone today" in english
    assert re.search(r'<a href="/pl/">[^<]+</a></p>', polish)
    assert 'id="new-game"' not in english  # a daily game is played once


def test_the_seed_appears_in_no_answer_before_the_day_is_over(app, daily_player, clock):
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
        seed = days.seed(days.today())
    forms = (str(seed), f"{seed:x}", f"{seed:X}")
    for answer in answers:
        seen = answer.get_data(as_text=True) + str(answer.headers)
        assert not any(form in seen for form in forms)


def test_a_daily_replay_is_its_players_only_until_the_day_is_over(app, daily_player, clock):
    for direction in MOVES[:4]:
        daily_player.move(direction)
    game = daily_player.game
    pages = (f"/games/{game}", f"/games/{game}/position?move=2", f"/games/{game}/review",
             f"/games/{game}/review/progress", f"/pl/games/{game}")
    stranger = app.test_client()
    for page in pages:
        assert daily_player.client.get(page).status_code == 200
        refused = stranger.get(page)
        assert refused.status_code == 404 and "<html" in refused.text  # the 404 page
    clock.now = days.day_end(days.day_at(clock.now)) - 0.001
    assert stranger.get(pages[0]).status_code == 404
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


def test_an_ordinary_replay_stays_open_to_anyone(app, player):
    player.move("left")
    assert app.test_client().get(f"/games/{player.game}").status_code == 200
