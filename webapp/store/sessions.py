"""What a browser's session holds, and how every session store treats it.

A session holds only which game is the browser's current one (and its game of the day), the ids
of its earlier games (together, the games this browser played: `session_games`, `owned`),
its CSRF token, whether it has ever made a move (``played``: the session then lives as long as
a played game, otherwise an hour) and the day its cookie was last sent (``touched``). Its stored
expiry is renewed by every move of its games, in the game's own write (`GameStore.replace`);
a player's cookie is sent again at most once a day, on the first visit or move of the day, and
lives a day longer than the stored session, so the store, not the browser, decides when it ends.
Whatever else a stored session holds, or a value of the wrong type, is dropped with a logged
warning: garbage never reaches a route, and a dropped game id or token only means a fresh
start.

A session that takes a fresh id (`renew_id`) leaves a marker under the old one for RENEWAL_GRACE
seconds: a request still on its way with the old id (a second press of New game, a page loaded
at that moment) is answered 503 with Retry-After, writing nothing and setting no cookie, and the
page sends it again with the cookie it now holds. Deleted at once, the old id would read as no
session at all, and such a request would start a new one whose cookie replaced the player's.

`StoreSessions` is mixed into Flask-Session's interfaces (SQLite and Redis): it decodes strictly
(msgpack only; Flask-Session's pickle fall-back is never used), gives each session its lifetime,
skips the store for static files, and turns a store fault into a 503 with nothing written.
It leans on Flask-Session's underscore hooks: `webapp.overrides` lists them, with the version.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timezone
from typing import Any

import msgspec
from flask import Flask, Request, Response, current_app, session
from flask import request as current_request
from flask_session.base import ServerSideSession, ServerSideSessionInterface

from webapp.store.errors import STORE_ERRORS, SessionRenewed, StoreUnavailable, fault_text
from webapp.store.game_record import is_game_id
from webapp.store.retention import Retention

log = logging.getLogger(__name__)

#: Seconds a player's cookie outlives the stored session: the stored session is renewed by every
#: move, the cookie only at most once a day.
COOKIE_LEAD = 86400.0

#: Earlier games a session remembers (the newest ones).
MAX_EARLIER_GAMES = 100

#: Seconds the old id of a renewed session is answered "retry" before it reads as unknown.
RENEWAL_GRACE = 60.0
#: What is stored under a renewed session's old id for RENEWAL_GRACE seconds.
RENEWED = {"renewed": True}


def _game_ids(value: object) -> bool:
    return isinstance(value, list) and len(value) <= MAX_EARLIER_GAMES and all(
        is_game_id(item) for item in value)


#: Each key a session may hold, with the check its value must pass.
SESSION_KEYS = {
    "game": is_game_id,
    "daily": is_game_id,
    "games": _game_ids,
    "csrf_token": lambda value: isinstance(value, str) and 0 < len(value) <= 256,
    "played": lambda value: value is True,
    "touched": lambda value: type(value) is int and value >= 0,
    "renewed": lambda value: value is True,
    "_permanent": lambda value: isinstance(value, bool),
}


def sanitized(data: object) -> dict[str, Any] | None:
    """The keys of `data` that pass their check; None when it is not a mapping at all."""
    if not isinstance(data, dict):
        log.warning("a stored session is not a mapping (%s): ignored", type(data).__name__)
        return None
    kept = {key: value for key, value in data.items()
            if key in SESSION_KEYS and SESSION_KEYS[key](value)}
    if len(kept) != len(data):
        log.warning("a stored session held unusable keys, dropped: %s",
                    sorted(map(repr, set(data) - set(kept))))
    return kept


def session_games() -> list[str]:
    """The ids of this browser's games: its earlier ones, its game of the day, its current one."""
    current = (session[key] for key in ("daily", "game") if key in session)
    return [*session.get("games", []), *current]


def owned(game_id: str) -> bool:
    """Whether this browser played the game."""
    return game_id in session_games()


def renew_id() -> None:
    """Give this browser's session a fresh id, keeping everything it holds. Called wherever a
    game begins or enters the records: an id someone else also holds (planted in this browser,
    or copied from it) reaches nothing from then on."""
    current_app.session_interface.regenerate(session)


def today() -> int:
    """The day number (days since 1970, UTC) that ``touched`` holds."""
    return int(time.time() // 86400)


class StoreSession(ServerSideSession):
    """A server-side session that knows whether this request may write it, whether it was read
    from the store, and which stored session it replaces (see `StoreSessions.regenerate`)."""

    writable = True
    unavailable = False
    renewed = False  # its id was replaced by a fresh one a moment ago
    stored = False
    replaces: str | None = None


class StoreSessions(ServerSideSessionInterface):
    """Behaviour shared by the session interfaces; mix in before Flask-Session's own."""

    session_class = StoreSession
    retention: Retention
    where: str  # the store, as logs name it
    renewal_grace = RENEWAL_GRACE

    def decode(self, raw: bytes) -> dict[str, Any] | None:
        """A stored session, strictly: msgpack, sanitized; None for anything unreadable."""
        try:
            return sanitized(msgspec.msgpack.decode(raw))
        except (msgspec.DecodeError, TypeError, ValueError) as error:
            log.warning("a stored session does not decode, ignored: %s", error)
            return None

    def lifetime(self, session: ServerSideSession) -> float:
        """Seconds this session is kept after its last write or its games' last move."""
        return self.retention.lifetime(session.get("played") is True)

    def get_expiration_time(self, app: Flask, session: ServerSideSession) -> datetime:
        """The cookie lives as long as the stored session, a player's a day longer (see
        COOKIE_LEAD)."""
        lead = COOKIE_LEAD if session.get("played") is True else 0.0
        return datetime.fromtimestamp(time.time() + self.lifetime(session) + lead, timezone.utc)

    def stored_id(self, session: StoreSession) -> str:
        """The id the session is stored under: what a write of its game renews."""
        return self._get_store_id(session.sid)

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure when SESSION_COOKIE_SECURE says so, and whenever the request came over HTTPS."""
        return super().get_cookie_secure(app) or current_request.is_secure

    def open_session(self, app: Flask, request: Request) -> StoreSession:
        """Read the session; static files skip the store; a fault marks it unavailable."""
        if request.path.startswith(f"{app.static_url_path}/"):
            return self._detached()
        try:
            opened = super().open_session(app, request)
        except STORE_ERRORS as error:
            app.logger.warning("session store %s: cannot read: %s", self.where, fault_text(error))
            return self._detached(unavailable=True)
        if opened.get("renewed") is True:
            return self._detached(renewed=True)
        opened.stored = bool(opened)  # the store never keeps an empty session
        return opened

    def regenerate(self, session: StoreSession) -> None:
        """Give the session a fresh id, unless it was never stored (nobody else can hold an id
        the store never kept). Its store writes it under the new id and marks the old one
        RENEWED for `renewal_grace` seconds (`_upsert_session`, with `replaced_id`): never the
        mark without the write, so a failed write never leaves the browser without its
        session."""
        if not session.stored:
            return
        session.replaces = session.replaces or session.sid
        session.sid = self._generate_sid(self.sid_length)
        session.modified = True

    def save_session(self, app: Flask, session: StoreSession, response: Response) -> None:
        """Write (if this request may); a failed write turns the answer into the 503."""
        if not session.writable:
            return
        try:
            super().save_session(app, session, response)
        except STORE_ERRORS as error:
            app.logger.warning("session store %s: cannot write: %s", self.where,
                               fault_text(error))
            _answer_unavailable(app, response)
            return

    def replaced_id(self, session: ServerSideSession) -> str | None:
        """The store id of the session this one renews (`regenerate`), if it renews one."""
        replaces = getattr(session, "replaces", None)
        return self._get_store_id(replaces) if replaces else None

    def _detached(self, unavailable: bool = False, renewed: bool = False) -> StoreSession:
        """An empty session this request must not write, marked with why if it is refused."""
        opened = self.session_class(sid=self._generate_sid(self.sid_length))
        opened.writable, opened.unavailable, opened.renewed = False, unavailable, renewed
        return opened


def install_sessions(app: Flask, interface: StoreSessions) -> None:
    """Make `interface` the app's session interface, refusing requests early when it is down."""
    app.session_interface = interface
    # First of all before-request hooks, so CSRF and rate limits never see a missing session.
    app.before_request_funcs.setdefault(None, []).insert(0, _refuse_without_store)


def _refuse_without_store() -> None:
    if getattr(session, "renewed", False):
        raise SessionRenewed
    if getattr(session, "unavailable", False):
        raise StoreUnavailable


def _answer_unavailable(app: Flask, response: Response) -> None:
    """Turn the response being sent into the app's answer to StoreUnavailable."""
    answer = app.make_response(app.handle_http_exception(StoreUnavailable()))
    response.status_code = answer.status_code
    response.set_data(answer.get_data())
    response.headers.update(answer.headers)
