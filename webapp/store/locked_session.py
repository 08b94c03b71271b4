"""Session interface behaviour shared by every store: one request at a time per game, 503 on faults.

`open_session` takes the game's lock before reading it; `save_session` writes the game and lets
the lock go (a teardown hook lets go too, should `save_session` never run). When the store cannot
be locked, read or written, the request is answered with `StoreUnavailable` and nothing is
written, so the stored game stays exactly as it was and a retry later carries on from it.
"""

from __future__ import annotations

from flask import Flask, Request, Response, session
from flask import request as current_request
from flask_session.base import ServerSideSession, ServerSideSessionInterface

from webapp.store.errors import STORE_ERRORS, StoreUnavailable
from webapp.store.locks import HeldLock, Locks


class LockedSession(ServerSideSession):
    """A server-side session that knows whether this request holds its lock and may write it."""

    held: HeldLock | None = None
    writable = True
    unavailable = False


class LockingSessionInterface(ServerSideSessionInterface):
    """Mix in before a Flask-Session interface; set `locks` before the first request."""

    session_class = LockedSession
    locks: Locks

    def open_session(self, app: Flask, request: Request) -> LockedSession:
        """Lock, then read. New visitors need no lock: nobody else knows their fresh id."""
        sid = request.cookies.get(self.get_cookie_name(app))
        if not sid:
            return super().open_session(app, request)
        if request.path.startswith(f"{app.static_url_path}/"):
            return self._read_only(sid, unavailable=False)
        try:
            held = self.locks.acquire(self._get_store_id(sid))
        except STORE_ERRORS as error:
            app.logger.warning("session store: cannot lock: %r", error)
            return self._read_only(sid, unavailable=True)
        try:
            opened = super().open_session(app, request)
        except STORE_ERRORS as error:
            app.logger.warning("session store: cannot read: %r", error)
            _release(held)
            return self._read_only(sid, unavailable=True)
        opened.held = held
        return opened

    def save_session(self, app: Flask, session: LockedSession, response: Response) -> None:
        """Write (if this request may), then release the lock; a failed write becomes a 503."""
        try:
            if session.writable:
                super().save_session(app, session, response)
        except STORE_ERRORS as error:
            app.logger.warning("session store: cannot write: %r", error)
            _answer_unavailable(app, response)
        finally:
            release_lock(session)

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure when SESSION_COOKIE_SECURE says so, and whenever the request came over HTTPS."""
        return super().get_cookie_secure(app) or current_request.is_secure

    def _read_only(self, sid: str, unavailable: bool) -> LockedSession:
        """An empty session this request must not write (static files, or the store is down)."""
        opened = self.session_class(sid=sid)
        opened.writable = False
        opened.unavailable = unavailable
        return opened


def install_locked_sessions(app: Flask, interface: LockingSessionInterface) -> None:
    """Make interface the app's session interface, refusing requests early when it is down."""
    app.session_interface = interface
    # First of all before-request hooks, so CSRF and rate limits never see a missing session.
    app.before_request_funcs.setdefault(None, []).insert(0, _refuse_without_store)
    app.teardown_request(_release_at_teardown)


def release_lock(opened: LockedSession) -> None:
    """Let go of the session's lock, if it still holds one."""
    held, opened.held = opened.held, None
    if held is not None:
        _release(held)


def _release(held: HeldLock) -> None:
    try:
        held.release()
    except STORE_ERRORS:
        pass  # the store is down: a Redis lock expires by itself, a file lock needs no store


def _refuse_without_store() -> None:
    if getattr(session, "unavailable", False):
        raise StoreUnavailable


def _release_at_teardown(_error: BaseException | None) -> None:
    opened = session._get_current_object()
    if isinstance(opened, LockedSession):
        release_lock(opened)


def _answer_unavailable(app: Flask, response: Response) -> None:
    """Turn the response being sent into the app's answer to StoreUnavailable."""
    answer = app.make_response(app.handle_http_exception(StoreUnavailable()))
    response.status_code = answer.status_code
    response.set_data(answer.get_data())
    response.headers.update(answer.headers)
