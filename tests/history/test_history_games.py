"""The list of this browser's games: newest first, with what each came to and the ways to its
replay and review, a chart of their best tiles, and an empty state for a first visit."""

from __future__ import annotations

import re

from history_support import play

ROW = re.compile(r'<tr data-game="([^"]+)">(.*?)</tr>', re.S)
CELLS = re.compile(r"<td[^>]*>(.*?)</td>", re.S)


def test_a_first_visit_gets_the_empty_state_and_no_cookie(client):
    answer = client.get("/games")
    assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    assert "No games yet." in answer.text
    assert "<table" not in answer.text and "<svg" not in answer.text
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
    rows = ROW.findall(page)
    assert [game_id for game_id, _ in rows] == list(played)[::-1]  # newest first
    for game_id, row in rows:
        summary = played[game_id]
        date, score, best_tile, moves, help_, links = CELLS.findall(row)
        assert (score, best_tile, moves) == (
            f"{summary.score:,}", str(summary.best_tile), str(summary.moves))
        assert ("Assisted" in help_) == (summary.moves == 9)
        assert f'href="/games/{game_id}"' in links and f'href="/games/{game_id}/review"' in links
        assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT', date)
    bars = re.findall(r'<rect class="chart-bar[^"]*"[^>]*data-game="([^"]+)" data-tile="(\d+)"',
                      page)
    assert bars == [(game_id, str(played[game_id].best_tile)) for game_id in played]  # oldest left
    heights = [float(h) for h in re.findall(r'<rect class="chart-bar[^>]*height="([\d.]+)"', page)]
    tiles = [played[game_id].best_tile for game_id in played]
    assert sorted(range(3), key=heights.__getitem__) == sorted(range(3), key=tiles.__getitem__)


def test_the_list_is_linked_from_the_game_page(client):
    assert 'id="games-link" href="/games"' in client.get("/").text
