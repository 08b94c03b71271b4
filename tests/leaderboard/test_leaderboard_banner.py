"""The end-of-game banner: the way to the records table and the Share button's text and link,
in the player's language; the game page's links to the daily game and the records."""

import html
import re

from tests.leaderboard.leaderboard_support import enter, finish
from webapp import days


def share_button(text: str) -> dict[str, str]:
    button = re.search(r"<button[^>]*data-share [^>]*>", text).group(0)
    return {name: html.unescape(value)
            for name, value in re.findall(r'data-(share-text|share-url)="([^"]*)"', button)}


def test_the_banner_offers_the_records_and_shares_the_score_and_the_replay_link(
        player, store, client):
    finish(player, store)
    record = store.games.get(player.game)
    banner = client.get(f"/state?game={player.game}").text
    assert f'href="/en/records/enter?game={player.game}"' in banner
    assert share_button(banner) == {
        "share-text": f"2048: best tile {record.summary().best_tile}, {record.game.score:,} points",
        "share-url": f"http://localhost/en/games/{player.game}"}
    polish = client.get(f"/pl/state?game={player.game}").text
    assert share_button(polish)["share-text"].endswith("punktów") or share_button(
        polish)["share-text"].endswith("punkty")
    assert "Wpisz się do rekordów" in polish and "Udostępnij" in polish


def test_a_daily_games_share_text_names_its_day(app, store, clock, make_player):
    player = make_player(app.test_client(), "/daily")
    finish(player, store)
    record = store.games.get(player.game)
    banner = player.client.get(f"/ja/daily/state?game={player.game}").text
    day = days.day_at(clock.now)
    assert share_button(banner)["share-text"] == (
        f"2048 デイリー（{day.year}年{day.month}月{day.day}日）："
        f"最大タイル{record.summary().best_tile}、{record.game.score:,}点")
    assert "ランキングに登録" in banner


def test_an_assisted_games_banner_shares_but_offers_no_entry(player, store, client):
    player.post("/hint")
    finish(player, store)
    banner = client.get(f"/state?game={player.game}").text
    assert "leaderboard/enter" not in banner and "data-share " in banner


def test_the_game_page_links_to_the_daily_game_and_the_records(client):
    page = client.get("/pl/").text
    assert 'href="/pl/daily"' in page and 'href="/pl/records"' in page
    daily = client.get("/pl/daily").text
    assert 'href="/pl/records/daily"' in daily and 'id="daily-link"' not in daily


def test_after_entering_the_banner_shows_the_games_rank_instead_of_the_entry(
        player, store, client):
    finish(player, store)
    assert enter(player, "Ann").status_code == 303
    banner = client.get(f"/state?game={player.game}").text
    assert "leaderboard/enter" not in banner
    assert f'href="/en/records#entry-{player.game}">In the records: rank 1</a>' in banner
    assert "ランキング1位" in client.get(f"/ja/state?game={player.game}").text


def test_a_daily_games_banner_ranks_it_in_its_days_table(app, store, clock, make_player):
    player = make_player(app.test_client(), "/daily")
    finish(player, store)
    assert enter(player).status_code == 303
    banner = player.client.get(f"/daily/state?game={player.game}").text
    day = days.day_at(clock.now).isoformat()
    assert f'href="/en/records/daily?day={day}#entry-{player.game}"' in banner


def help_note(text: str) -> str:
    return re.search(r'<p id="help-note" class="help-note">(.*?)</p>', text, re.S).group(1)


def test_the_page_says_before_any_help_that_help_keeps_the_game_out_of_the_records(
        player, store, client):
    assert "using one keeps this game out of the records" in help_note(player.page.text)
    assert "Podpowiedź, Cofnij i Autopilot to pomoc" in help_note(client.get("/pl/").text)
    hinted = player.post("/hint")
    assert "This game used help" in help_note(hinted.text)
    assert 'id="assisted"' in hinted.text
    assert "This game used help" in help_note(client.get("/").text)


def test_a_finished_game_without_help_has_nothing_left_to_warn_of(player, store, client):
    finish(player, store)
    assert help_note(client.get(f"/state?game={player.game}").text).strip() == ""
