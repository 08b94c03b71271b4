"""The list of this browser's games: newest first, with what each came to and the ways to its
replay and review, a chart of their best tiles, and an empty state for a first visit."""

from __future__ import annotations

import re
from datetime import datetime, timezone

from tests.history_support import play

CARD = re.compile(r'<li class="game-card" data-game="([^"]+)">(.*?)</li>', re.S)
FIELD = re.compile(r'<dd data-field="([\w-]+)">([^<]*)</dd>')


def test_a_first_visit_gets_the_empty_state_and_no_cookie(client):
    answer = client.get("/games")
    assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    assert "No games yet." in answer.text
    assert "game-card" not in answer.text and "<svg" not in answer.text
    client.get("/")  # a game, not yet played, is not listed
    assert "No games yet." in client.get("/games").text


def test_the_games_of_this_browser_newest_first_with_links_and_a_chart(player, store):
    played = {}
    for moves in (4, 9, 6):
        play(player, store, moves=moves)
        if moves == 9:
            assert player.post("/hint").status_code == 200  # the assisted one
        played[player.game] = store.record(store.sid_of(player.client)).summary()
        player.post("/new")
    page = player.client.get("/games").text
    cards = CARD.findall(page)
    assert [game_id for game_id, _ in cards] == list(played)[::-1]  # newest first
    for game_id, card in cards:
        summary = played[game_id]
        assert dict(FIELD.findall(card)) == {"score": f"{summary.score:,}",
                                             "best-tile": str(summary.best_tile),
                                             "moves": str(summary.moves)}
        assert ("data-assisted" in card) == (summary.moves == 9)
        assert f'href="/en/games/{game_id}"' in card and f'href="/en/games/{game_id}/review"' in card
        day = datetime.fromtimestamp(summary.last_played, timezone.utc)  # in long form, timed
        hour = f"{day.hour % 12 or 12}:{day.minute:02d}\u202f{'AM' if day.hour < 12 else 'PM'}"
        assert (f'<time datetime="{day.isoformat()}">{day:%B} {day.day}, {day.year}, {hour} UTC'
                '</time>') in card
        assert "data-daily" not in card
    bars = re.findall(r'<rect class="chart-bar[^"]*"[^>]*data-game="([^"]+)" data-tile="(\d+)"',
                      page)
    assert bars == [(game_id, str(played[game_id].best_tile)) for game_id in played]  # oldest left
    heights = [float(h) for h in re.findall(r'<rect class="chart-bar[^>]*height="([\d.]+)"', page)]
    tiles = [played[game_id].best_tile for game_id in played]
    assert sorted(range(3), key=heights.__getitem__) == sorted(range(3), key=tiles.__getitem__)


def test_a_daily_games_card_says_so(client, make_player):
    ordinary, daily = make_player(client), make_player(client, "/daily")
    assert ordinary.move("left").status_code == 200 and daily.move("up").status_code == 200
    cards = dict(CARD.findall(client.get("/games").text))
    assert ("data-daily" in cards[daily.game], "data-daily" in cards[ordinary.game]) == (
        True, False)
    assert "Daily game" in cards[daily.game]


def test_the_list_is_linked_from_the_game_page(client):
    assert 'id="games-link" href="/en/games"' in client.get("/").text
