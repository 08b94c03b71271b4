"""The replay by link: the board after any move as play showed it, a step forward animated as in
play, anyone with the link can watch and nobody can change the game through it; an unknown game
is a 404 in the reader's language."""

from __future__ import annotations

import re

import pytest
from flask_babel import force_locale, gettext

from harness.player import csrf_token
from tests.board_html import shown_rows, tiles_drawn
from tests.history_support import ask, play, wait_for_review
from webapp.game.controls import SHOWN_DIRECTIONS
from webapp.history import replay
from webapp.i18n import LANGUAGES


def stored_rows(app) -> dict[str, int]:
    connection = app.extensions["games"].database.connection()
    return {table: connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("games", "sessions")}


def test_the_replay_at_move_n_is_the_board_seen_after_move_n(player, store):
    seen = [shown_rows(player.client.get("/").text)]
    for direction in ("left", "up", "right", "down") * 4:
        answer = player.move(direction)
        if "Moved" in answer.text:
            seen.append(shown_rows(answer.text))
    assert len(seen) > 8
    for move, board in enumerate(seen):
        assert shown_rows(player.client.get(f"/games/{player.game}?move={move}").text) == board
        step = player.client.get(f"/games/{player.game}/position?move={move}&from=0")
        assert shown_rows(step.text) == board
    latest = player.client.get(f"/games/{player.game}").text
    assert shown_rows(latest) == seen[-1]
    assert shown_rows(player.client.get(f"/games/{player.game}?move=99999").text) == seen[-1]
    assert f"Move {len(seen) - 1} of {len(seen) - 1}" in latest


def test_a_step_forward_animates_as_in_play_and_a_jump_draws_the_tiles_in_place(player, store):
    directions = play(player, store, moves=6)
    assert len(directions) == 6
    url = f"/games/{player.game}/position"
    forward = tiles_drawn(player.client.get(f"{url}?move=4&from=3").text)
    assert sum("new" in tile for tile in forward) == 1
    assert any("from-row" in tile for tile in forward)
    for shown in (0, 5, 6):
        jumped = tiles_drawn(player.client.get(f"{url}?move=4&from={shown}").text)
        assert not any({"new", "from-row", "merged", "leaving"} & set(tile) for tile in jumped)
        assert shown_rows(player.client.get(f"{url}?move=4&from={shown}").text) == shown_rows(
            player.client.get(f"{url}?move=4&from=3").text)
    text = player.client.get(f"{url}?move=2&from=1").text
    assert "Move 2 of 6" in text and "Played next: " in text
    assert 'aria-live="polite">Move 2 of 6. Score:' in text


def test_the_game_page_links_to_its_replay_and_a_new_game_moves_the_link(player, store):
    page = player.client.get("/").text
    assert f'id="replay-link" href="/en/games/{player.game}"' in page
    assert 'id="games-link" href="/en/games"' in page
    first = player.game
    moved = player.move(store.game_of(player.client).legal_moves()[0])
    assert moved.status_code == 200 and 'id="replay-link"' not in moved.text  # the same game
    answer = player.post("/new")
    assert player.game != first
    assert f'id="replay-link" href="/en/games/{player.game}"' in answer.text


def better_move(html: str) -> tuple[str | None, str]:
    """The direction the replay's arrow shows over the board, and the sentence under it."""
    arrow = re.search(r'<div id="replay-better-arrow"([^>]*)>', html).group(1)
    direction = re.search(r'data-direction="(\w+)"', arrow)
    note = re.search(r'<p id="replay-better"[^>]*>([^<]*)</p>', html)
    return direction and direction.group(1), note.group(1)


def test_where_the_review_found_a_costly_move_the_replay_shows_the_move_it_preferred(
        app, player, store):
    play(player, store, moves=40)
    url = f"/games/{player.game}"
    assert better_move(player.client.get(f"{url}?move=0").text) == (None, "")  # no review yet
    assert 'data-reviewed' not in player.client.get(url).text  # so no room kept for one
    ask(player)
    analysis = wait_for_review(app, player.game).analysis
    costly = analysis.costly[0]
    arrow = SHOWN_DIRECTIONS[costly.best].arrow  # in English a direction's name is its own
    page = player.client.get(f"{url}?move={costly.number - 1}").text
    direction, sentence = better_move(page)
    assert direction == costly.best  # what it gave away: a share of the position's value
    assert re.fullmatch(f"The review prefers {arrow} {costly.best}; the move played: "
                        r"−[\d.]+%", sentence)
    step = player.client.get(f"{url}/position?move={costly.number - 1}&from={costly.number}").text
    assert better_move(step) == (costly.best, sentence)
    assert re.search(r'aria-live="polite">[^<]*' + re.escape(sentence), step)  # announced
    listed = {move.number for move in analysis.costly}
    plain = next(number for number in range(1, 41) if number not in listed)
    other = player.client.get(f"{url}?move={plain - 1}").text
    assert better_move(other) == (None, "") and "data-reviewed" in other  # its room is kept


def test_a_stranger_can_watch_gets_no_cookie_and_cannot_move(app, player, store):
    play(player, store, moves=5)
    before_game = store.read(store.sid_of(player.client))
    before_rows = stored_rows(app)
    stranger = app.test_client()
    for path in (f"/games/{player.game}", f"/games/{player.game}?move=2",
                 f"/games/{player.game}/position?move=3&from=2", f"/games/{player.game}/review",
                 f"/games/{player.game}/review/progress", "/games"):
        answer = stranger.get(path)
        assert answer.status_code == 200, path
        assert "Set-Cookie" not in answer.headers, path
    review_page = stranger.get(f"/games/{player.game}/review").text
    assert 'id="review-ask"' not in review_page and "csrf-token" not in review_page
    assert "Only its player can ask for a review" in review_page
    assert stored_rows(app) == before_rows  # reading stored nothing
    assert stranger.post("/move", data={"game": player.game, "direction": "left",
                                        "seq": "6"}).status_code == 400  # no token
    other = app.test_client()
    token = csrf_token(other.get("/").text)
    for path, form in (("/move", {"direction": "left", "seq": "6"}), ("/undo", {"seq": "6"}),
                       ("/keep-playing", {}), ("/hint", {})):
        answer = other.post(path, data={"game": player.game, **form},
                            headers={"X-CSRFToken": token})
        assert answer.status_code == 409, path  # not this browser's game
    assert other.post(f"/games/{player.game}/review",
                      headers={"X-CSRFToken": token}).status_code == 403
    assert store.read(store.sid_of(player.client)) == before_game


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", ["/games/{unknown}", "/games/{unknown}/review",
                                  "/games/{unknown}/position?move=1", "/games/not-a-game-id",
                                  "/games/{known}?move=x", "/games/{known}/position?move=-1"])
def test_an_unknown_game_or_move_is_a_404_in_the_readers_language(app, player, lang, path):
    url = path.format(unknown="A" * 22, known=player.game)
    answer = app.test_client().get(url, headers={"Accept-Language": lang})
    assert answer.status_code == 404
    assert f'<html lang="{lang}">' in answer.text
    with app.test_request_context(), force_locale(lang):
        assert gettext("Page not found") in answer.text
    assert "Set-Cookie" not in answer.headers


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_replay_how_to_names_exactly_its_keys(player, lang):
    """The how-to under the replay is translated prose: it must name each key of replay.KEYS
    (an arrow key by its arrow) and no other, in every language."""
    player.move("left")
    page = player.client.get(f"/{lang}/games/{player.game}").text
    how_to = re.search(r'<p class="how-to">(.*?)</p>', page, re.S).group(1)
    named = set(re.findall(r"[←→↑↓]|(?<![A-Za-z])[A-Z][a-z]+(?![A-Za-z])", how_to))
    bound = {SHOWN_DIRECTIONS[code.removeprefix("Arrow").lower()].arrow
             if code.startswith("Arrow") else code for code in replay.KEYS}
    assert named == bound
