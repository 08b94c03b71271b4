"""A page speaks one language to the end: every fragment, redirect and link it asks for comes
back in the language of its URL, whatever the `lang` cookie or Accept-Language says."""

import json
import re

import pytest

from engine import Game
from webapp.i18n import LANGUAGES

SCORE_LABEL = {"en": "Score", "pl": "Wynik", "ja": "スコア"}
FIRST_OF_TWO = {"en": "Move 1 of 2", "pl": "Ruch 1 z 2", "ja": "2手中1手目"}
#: The browser's other settings a page in `lang` must not follow: (cookie, Accept-Language).
OTHERS = [(page, other) for page in LANGUAGES for other in LANGUAGES if other != page]
#: Two tiles that both move left, then one that moves up.
LEFT_THEN_UP = [[0, 2, 0, 0], [0] * 4, [0, 0, 0, 4], [0] * 4]
REQUEST_URLS = re.compile(r'<script type="application/json" id="request-urls">(.*?)</script>')


def start_from(player, store, rows: list[list[int]]) -> None:
    """Replace the player's game by a seeded one on these tiles."""
    store.update(store.sid_of(player.client), game=Game.from_rows(rows, seed=1))


def speak(client, other: str) -> None:
    """The browser remembers another language and asks for it."""
    client.set_cookie("lang", other)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = other


@pytest.mark.parametrize("lang, other", OTHERS)
def test_the_game_page_asks_for_its_fragments_in_its_own_language(client, lang, other):
    speak(client, other)
    page = client.get(f"/{lang}/").text
    urls = json.loads(REQUEST_URLS.search(page).group(1))
    assert set(urls) == {"state", "move", "undo", "new", "keep-playing", "hint", "solver-move"}
    assert all(url.startswith(f"/{lang}/") for url in urls.values()), urls
    assert re.search(rf'id="replay-link" href="/{lang}/games/[\w-]+"', page)


@pytest.mark.parametrize("lang, other", OTHERS)
def test_every_game_answer_is_in_the_pages_language(player, store, lang, other):
    speak(player.client, other)
    start_from(player, store, [[2, 2, 0, 0], [0] * 4, [0] * 4, [1024, 1024, 0, 0]])
    label = SCORE_LABEL[lang]
    assert label in player.post(f"/{lang}/move", direction="left", seq=str(player.seq + 1)).text
    assert label in player.post(f"/{lang}/keep-playing").text
    assert label in player.post(f"/{lang}/undo", seq=str(player.seq + 1)).text
    assert label in player.post(f"/{lang}/hint").text
    assert label in player.client.get(f"/{lang}/state?game={player.game}").text
    assert label in player.post(f"/{lang}/new").text
    assert label in player.post(f"/{lang}/move", direction="up", seq=str(player.seq + 1)).text
    assert SCORE_LABEL[other] not in player.post(f"/{lang}/hint").text


@pytest.mark.parametrize("lang, other", OTHERS)
def test_the_history_answers_in_the_pages_language(player, store, lang, other):
    start_from(player, store, LEFT_THEN_UP)
    player.move("left")
    player.move("up")
    speak(player.client, other)
    replay = player.client.get(f"/{lang}/games/{player.game}").text
    assert f'<html lang="{lang}">' in replay
    assert f'data-position-url="/{lang}/games/{player.game}/position"' in replay
    step = player.client.get(f"/{lang}/games/{player.game}/position?move=1&from=0").text
    assert FIRST_OF_TWO[lang] in step and FIRST_OF_TWO[other] not in step
    review = player.client.get(f"/{lang}/games/{player.game}/review").text
    assert f'action="/{lang}/games/{player.game}/review"' in review
    assert f'data-progress-url="/{lang}/games/{player.game}/review/progress"' in review
    assert f'<html lang="{lang}">' in player.client.get(f"/{lang}/games").text


def test_a_review_asked_without_script_comes_back_to_the_pages_language(player, store):
    start_from(player, store, LEFT_THEN_UP)
    player.move("left")
    speak(player.client, "ja")
    answer = player.client.post(f"/pl/games/{player.game}/review",
                                headers={"X-CSRFToken": player.token, "Sec-Fetch-Mode": "navigate"})
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/pl/games/{player.game}/review"


def test_unprefixed_routes_still_follow_the_cookie(player):
    # Pages drawn before the prefix existed post to /move; they keep getting an answer.
    speak(player.client, "ja")
    assert SCORE_LABEL["ja"] in player.move("left").text
