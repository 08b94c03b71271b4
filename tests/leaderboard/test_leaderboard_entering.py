"""Entering a game in the records table: a finished game of this browser, proved by replaying
its stored history, under a valid name, once; the tables; and games the table refuses."""

import re
from datetime import datetime, timezone

import pytest

from engine import Game
from tests.leaderboard.leaderboard_support import (
    BOTH_STORES, add_to_score, change_one_move, edit_stored, enter, finish, forget_game,
)
from webapp import days


def rows(client, path="/records"):
    """The table's rows: (name as shown, score as shown, game id)."""
    text = client.get(path).text
    return re.findall(r'<tr id="entry-([^"]+)"[^>]*>.*?<th [^>]*class="records-name">(.*?)</th>'
                      r'\s*<td [^>]*class="number records-score">([^<]+)</td>', text, re.S)


@BOTH_STORES
def test_a_finished_game_enters_once_and_the_table_links_its_replay(player, store, client):
    finish(player, store)
    score = store.games.get(player.game).game.score
    entered = enter(player, "  Ann  ")
    assert entered.status_code == 303
    assert entered.headers["Location"] == f"/en/records#entry-{player.game}"
    assert rows(client) == [(player.game, "Ann", f"{score:,}")]
    again = enter(player, "Bob")  # again: nothing changes, and the answer says so
    assert again.status_code == 409
    assert "in the records already, as “Ann”, at rank 1." in again.text
    assert f'href="/en/records#entry-{player.game}"' in again.text and 'name="name"' not in again.text
    assert rows(client) == [(player.game, "Ann", f"{score:,}")]
    page = client.get(f"/records/enter?game={player.game}")
    assert page.status_code == 409 and "at rank 1" in page.text and 'name="name"' not in page.text
    assert f'href="/en/games/{player.game}"' in client.get("/records").text


def test_the_enter_page_offers_the_form_for_a_finished_game_and_says_why_not_otherwise(
        player, store, client):
    page = client.get(f"/records/enter?game={player.game}")
    assert page.status_code == 409 and "Only a finished game" in page.text
    assert 'name="name"' not in page.text
    finish(player, store)
    page = client.get(f"/records/enter?game={player.game}")
    assert page.status_code == 200 and 'name="name"' in page.text and 'maxlength="24"' in page.text


def test_an_unfinished_game_is_refused(player):
    player.move("left")
    refused = enter(player)
    assert refused.status_code == 409 and "Only a finished game" in refused.text


def test_an_assisted_game_is_refused_in_the_players_language(player, store, client):
    player.post("/hint")
    finish(player, store)
    refused = enter(player, lang="/pl")
    assert refused.status_code == 403
    assert "grana z pomocą" in refused.text
    assert "アシスト" in enter(player, lang="/ja").text
    assert rows(client) == []


def test_only_the_browser_that_played_a_game_may_enter_it(player, store, app, make_player):
    finish(player, store)
    other = make_player(app.test_client())
    assert enter(other, game=player.game).status_code == 404
    assert other.client.get(f"/records/enter?game={player.game}").status_code == 404


def test_names_are_trimmed_normalised_and_refused_with_a_reason(player, store, client):
    finish(player, store)
    for name, reason in (("", "Enter a name"), ("   ", "Enter a name"),
                         ("x" * 25, "at most 24 characters"),
                         ("\u202eAnn", "invisible"), ("A\u200bnn", "invisible"),
                         ("An\u2066n", "invisible"), ("Ann\x07", "invisible"),
                         ("An\u2028n", "invisible"), ("\ufeffAnn", "invisible")):
        refused = enter(player, name)
        assert refused.status_code == 400 and reason in refused.text, name
    assert rows(client) == []
    name = "Zoe\u0301" + "abcdefghijklmnopqrst"  # 25 characters, 24 once composed
    assert enter(player, f"  {name} ").status_code == 303
    assert rows(client)[0][1] == "Zo\u00e9" + "abcdefghijklmnopqrst"


@pytest.mark.parametrize(("name", "reason"), [
    ("\u3164\u3164", "invisible"),  # Hangul fillers: letters drawn as nothing
    ("\u2800", "invisible"),  # the blank Braille pattern
    ("Ann\u115f", "invisible"),
    ("A\ufe0f", "invisible"),  # a variation selector: default-ignorable
    ("\ue000Ann", "invisible"),  # private use
    ("\u0378Ann", "invisible"),  # unassigned
    ("An\u2029n", "invisible"),  # a paragraph separator
    ("\u0301\u0302", "at least one letter, digit or sign"),
    ("A" + "\u0336" * 3, "at most 2 accents or marks"),
    ("A" + "\u0336" * 23, "at most 2 accents or marks"),
    ("\ufdfd" * 9, "at most 8 times in a row"),
    ("Anna" + "a" * 8, "at most 8 times in a row"),
])
def test_a_name_that_shows_nothing_or_harms_the_table_is_refused_with_a_reason(
        player, store, client, name, reason):
    finish(player, store)
    refused = enter(player, name)
    assert refused.status_code == 400 and reason in refused.text
    assert rows(client) == []


def test_names_at_the_limits_enter(player, store, client):
    finish(player, store)
    assert enter(player, "abcdefghijklmnopqrstuvwx").status_code == 303  # 24 characters
    assert rows(client)[0][1] == "abcdefghijklmnopqrstuvwx"


@pytest.mark.parametrize("name", ["A\u0301\u0323", "Ann" + "n" * 5, "Jan\u3000Kowalski", "😀"])
def test_accents_a_run_of_eight_wide_spaces_and_symbols_are_names(player, store, client, name):
    finish(player, store)
    assert enter(player, name).status_code == 303


def test_a_refused_name_is_offered_again_in_the_form_in_the_players_language(
        player, store, client):
    finish(player, store)
    refused = enter(player, "x" * 25, lang="/pl")
    assert refused.status_code == 400 and f'value="{"x" * 25}"' in refused.text
    assert "najwyżej 24 znaki" in refused.text
    assert "co najmniej jedną widoczną" in enter(player, "\u0301", lang="/pl").text
    assert "同じ文字を続けて8回まで" in enter(player, "\ufdfd" * 9, lang="/ja").text


def test_names_are_shown_escaped(player, store, client):
    finish(player, store)
    assert enter(player, '<b onclick="x">&amp;').status_code == 303
    assert rows(client)[0][1] == "&lt;b onclick=&#34;x&#34;&gt;&amp;amp;"


@BOTH_STORES
@pytest.mark.parametrize("tamper", [lambda saved: add_to_score(saved, 4), change_one_move],
                         ids=["score", "one-move"])
def test_a_stored_game_changed_behind_the_servers_back_is_refused(player, store, client, app,
                                                                   tamper):
    finish(player, store)
    edit_stored(app, player.game, tamper)
    refused = enter(player)
    assert refused.status_code == 422 and "does not replay to its score" in refused.text
    assert rows(client) == []


@BOTH_STORES
def test_an_entry_outlives_its_game_in_the_store(player, store, client, app):
    finish(player, store)
    assert enter(player).status_code == 303
    forget_game(app, player.game)
    assert store.games.get(player.game) is None
    assert [row[0] for row in rows(client)] == [player.game]
    replay = app.test_client().get(f"/games/{player.game}")
    assert replay.status_code == 200 and "Game over" in replay.text


@BOTH_STORES
def test_a_daily_game_enters_its_days_table_and_the_all_time_one(app, store, clock, make_player):
    player = make_player(app.test_client(), "/daily")
    ordinary = make_player(player.client)
    finish(player, store)
    finish(ordinary, store)
    day = days.day_at(clock.now).isoformat()
    entered = enter(player, "Daily Ann")
    assert entered.headers["Location"] == f"/en/records/daily?day={day}#entry-{player.game}"
    assert enter(ordinary, "Plain Ann").status_code == 303
    client = player.client
    assert [row[1] for row in rows(client, "/records/daily")] == ["Daily Ann"]
    assert [row[1] for row in rows(client, f"/records/daily?day={day}")] == ["Daily Ann"]
    assert sorted(row[1] for row in rows(client)) == ["Daily Ann", "Plain Ann"]
    clock.now = days.day_end(days.day_at(clock.now)) + 1
    assert [row[1] for row in rows(client, f"/pl/records/daily?day={day}")] == ["Daily Ann"]
    assert rows(client, "/records/daily") == []


def test_a_daily_game_finished_after_its_day_is_refused(app, store, clock, make_player):
    player = make_player(app.test_client(), "/daily")
    finish(player, store)
    record = store.games.get(player.game)
    record.last_played = days.day_end(days.day_at(clock.now))
    assert store.games.replace(record)
    refused = enter(player)
    assert refused.status_code == 409 and "after its day was over" in refused.text


def test_a_day_must_be_a_date_up_to_today(client, clock):
    today = days.day_at(clock.now)
    assert client.get(f"/records/daily?day={today.isoformat()}").status_code == 200
    for day in (days.day_at(clock.now + 86400).isoformat(), "2026-13-01", "yesterday",
                "2026-1-1", "", "20261205"):
        assert client.get(f"/records/daily?day={day}").status_code == 404, day


def test_entering_has_its_own_budget_per_session(tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", RECORDS_RATE_LIMIT="2/minute",
                       ADDRESS_BUDGET_SESSIONS=10)
    first, second = (make_player(app.test_client()) for _ in range(2))
    assert [enter(first, "").status_code for _ in range(3)] == [400, 400, 429]
    assert enter(second, "").status_code == 400
    assert first.move("left").status_code == 200  # moves have their own budget


def test_entering_has_its_own_budget_per_address(tmp_path, make_web_app, make_player):
    app = make_web_app(tmp_path / "instance", RECORDS_RATE_LIMIT="2/minute",
                       ADDRESS_BUDGET_SESSIONS=2)
    first, second, third = (make_player(app.test_client()) for _ in range(3))
    assert [enter(player, "").status_code for player in (first, first, second, second)] == [
        400] * 4
    assert enter(third, "").status_code == 429  # a fresh session, the address's four spent


@BOTH_STORES
def test_an_entrys_replay_shows_the_game_as_entered_after_its_player_takes_a_move_back(
        player, store, client, app):
    """The table's link is the proof of its score: an undo on the live game after entering
    it does not change what the link shows."""
    finish(player, store)
    entered = store.games.get(player.game).game
    assert enter(player).status_code == 303
    assert player.post("/undo", seq=str(player.seq + 1)).status_code == 200
    assert store.games.get(player.game).game.moves == entered.moves - 1
    replay = app.test_client().get(f"/games/{player.game}")
    assert replay.status_code == 200 and "Game over" in replay.text
    assert f"{entered.score:,}" in replay.text


#: A board one move from its end, and one merge from 2048.
NEAR_LOSS = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 0]]
NEAR_WIN = [[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]]


def test_a_game_whose_history_does_not_start_where_its_seed_deals_is_refused(
        player, store, client, app):
    """A game set up on a board no new game of its seed deals (here a board one move from its
    end): every move of its history is legal and leads to its score, but it did not start
    where the server dealt it."""
    sid = store.sid_of(client)
    store.update(sid, game=Game.from_rows(NEAR_LOSS, seed=5))
    finish(player, store)
    refused = enter(player)
    assert refused.status_code == 422 and "does not replay to its score" in refused.text
    assert rows(client) == []


def test_an_ordinary_game_marked_as_a_daily_one_is_refused(player, store, client, clock):
    """The day a record names is proved too: its history must start from that day's opening."""
    finish(player, store)
    store.update(store.sid_of(client), day=days.day_at(clock.now))
    assert enter(player).status_code == 422
    assert rows(client) == rows(client, "/records/daily") == []


def test_a_won_game_awaiting_its_players_choice_is_not_finished(player, store, client):
    store.update(store.sid_of(client), game=Game.from_rows(NEAR_WIN, seed=7))
    assert player.move("left").status_code == 200
    assert store.games.get(player.game).game.status == "won"
    refused = enter(player)
    assert refused.status_code == 409 and "Only a finished game" in refused.text


def test_an_entry_is_dated_when_it_was_entered(player, store, client, clock):
    finish(player, store)
    clock.now = datetime(2030, 3, 1, 12, tzinfo=timezone.utc).timestamp()
    assert enter(player).status_code == 303
    assert '<time datetime="2030-03-01">' in client.get("/records").text


@BOTH_STORES
def test_a_daily_game_dealt_before_games_had_tiles_of_their_own_is_still_its_days_game(
        app, store, clock, make_player):
    """Until a day's games dealt their own tiles, every tile of a daily game came from the
    day's seed and its record named no day: such a record still reads as its day's game, is
    its player's alone until the day is over, and enters the day's table."""
    player = make_player(app.test_client(), "/daily")
    record = store.games.get(player.game)
    with app.app_context():
        record.game = Game.new(days.opening_seed(days.day_at(clock.now)))
    record.day = None
    assert store.games.replace(record)
    games = app.extensions["games"]
    if not hasattr(games, "database"):  # Redis: as the older code wrote it, with no day field
        games.client.hdel(f"game:{player.game}", "day")
    assert store.games.get(player.game).day is None
    assert app.test_client().get(f"/games/{player.game}").status_code == 403
    finish(player, store)
    day = days.day_at(clock.now).isoformat()
    assert enter(player, "Old Ann").headers["Location"].startswith(f"/en/records/daily?day={day}")
    assert [row[1] for row in rows(player.client, "/records/daily")] == ["Old Ann"]


def test_a_daily_entrys_replay_link_says_when_it_opens_until_the_day_is_over(
        app, store, clock, make_player):
    player = make_player(app.test_client(), "/daily")
    finish(player, store)
    assert enter(player).status_code == 303
    stranger = app.test_client()
    link = f"/en/games/{player.game}"
    assert f'href="{link}"' in stranger.get("/records").text
    shown = stranger.get(link)
    assert shown.status_code == 403 and "opens to everyone at" in shown.text
    clock.now = days.day_end(days.day_at(clock.now))
    assert stranger.get(link).status_code == 200


def test_the_records_pages_say_what_an_entry_proves_and_what_it_cannot(client):
    table = client.get("/records").text
    assert "The server dealt every tile and checked every move" in table
    assert "none of the site's help" in table and "cannot prove" in table
    assert "dealt in secret" in client.get("/records/daily").text
    assert "Czego nie potwierdza" in client.get("/pl/records").text
    assert "証明できないこと" in client.get("/ja/records").text
