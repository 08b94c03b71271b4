"""The page's protocol, written once for the tests and the benchmarks.

The page's script (static/js/queue.js) holds a CSRF token, the id of the game it shows, that
game's last move number and where it stands, all read from the page it was served with. It names
the game in every intent it posts, sends the token in ``X-CSRFToken``, numbers a move after the
last ``X-Seq``, and takes ``X-Game``, ``X-Seq`` and ``X-Status`` (and ``X-CSRF-Token``) from the
answers that carry them. `Page` is that state and those rules, with no input or output of its
own; `Player` speaks them through any client with Flask's test-client interface: Flask's own
(``app.test_client()``) or `harness.http_client.HttpClient` on a live server. The asyncio players
of bench/server_load.py keep a `Page` each.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
GAME_ID = re.compile(r'data-game="([^"]+)"')
SEQ = re.compile(r'id="game"[^>]* data-seq="(\d+)"')
STATE = re.compile(r'id="game"[^>]* data-state="(\w+)"')


def csrf_token(html: str) -> str:
    """The CSRF token a page carries in its ``<meta name="csrf-token">``."""
    return CSRF_META.search(html).group(1)


def game_id(html: str) -> str:
    """The id of the game a page shows (its ``data-game``)."""
    return GAME_ID.search(html).group(1)


class Answer(Protocol):
    """What a client answers: Werkzeug's test response has these, and so has HttpClient's."""

    status_code: int
    headers: Any  # a case-insensitive mapping of header names to values
    text: str


class Client(Protocol):
    """Flask's test-client interface, as much of it as a player uses."""

    def get(self, path: str, **options: Any) -> Answer: ...

    def post(self, path: str, **options: Any) -> Answer: ...


class Page:
    """What the page's script holds, and how it names it in a request and follows an answer."""

    def __init__(self, token: str, game: str, seq: int = 0, status: str = "playing") -> None:
        self.token, self.game, self.seq, self.status = token, game, seq, status

    @classmethod
    def of(cls, html: str) -> Page:
        """The state a freshly loaded page starts from."""
        seq, state = SEQ.search(html), STATE.search(html)
        return cls(csrf_token(html), game_id(html), int(seq.group(1)) if seq else 0,
                   state.group(1) if state else "playing")

    def show(self, html: str) -> None:
        """Start again from a freshly loaded page (a reload)."""
        shown = Page.of(html)
        self.token, self.game, self.seq, self.status = (
            shown.token, shown.game, shown.seq, shown.status)

    def form(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        """An intent's form: the game shown, unless `fields` names another."""
        return {"game": self.game, **fields}

    def headers(self) -> dict[str, str]:
        """An intent's headers."""
        return {"X-CSRFToken": self.token}

    def next_seq(self) -> str:
        """The number the next move carries."""
        return str(self.seq + 1)

    def follow(self, headers: Mapping[str, str]) -> None:
        """Take what an answer's headers say: the game shown now, its last move number, where it
        stands, a new token."""
        self.game = headers.get("X-Game") or self.game
        seq = headers.get("X-Seq")
        if seq is not None:
            self.seq = int(seq)
        self.status = headers.get("X-Status") or self.status
        self.token = headers.get("X-CSRF-Token") or self.token


class Player(Page):
    """A browser: loads a page once (the game's, or another such as ``/daily``), then posts
    intents through `client` as the page's script does."""

    def __init__(self, client: Client, page: str = "/") -> None:
        self.client = client
        self.page = client.get(page)
        shown = Page.of(self.page.text)
        super().__init__(shown.token, shown.game, shown.seq, shown.status)

    def post(self, path: str, **form: Any) -> Answer:
        """Post an intent (a list value sends the field once per item) and follow its answer."""
        answer = self.client.post(path, data=self.form(form), headers=self.headers())
        self.follow(answer.headers)
        return answer

    def move(self, direction: str, seq: int | str | None = None, retry: bool = False) -> Answer:
        """A move, numbered after the last X-Seq unless `seq` is given; `retry`: sent again, as
        the page resends a press whose answer it did not get (its first try may have landed)."""
        return self.post("/move", direction=direction,
                         seq=self.next_seq() if seq is None else str(seq),
                         **({"retry": "1"} if retry else {}))

    def served(self, path: str, **form: Any) -> str:
        """Post an intent whose answer must be a 200: its text."""
        answer = self.post(path, **form)
        if answer.status_code != 200:
            raise RuntimeError(f"POST {path} answered {answer.status_code}")
        return answer.text
