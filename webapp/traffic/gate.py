"""Refusals that cost next to nothing: once a budget has refused a client (its address, or its
session cookie), the client's later requests on the same budget are refused at the door until
the window that refused it ends.

A WSGI middleware in front of the app. The budgets count as before (`webapp.traffic.budgets`);
when one refuses a request, `remember` notes the budget, the client and the window's end, in
this process's memory. Until then, a request of that client on that budget is answered here: the
same 429, Retry-After, message and headers (rendered once per language), without reading the
session, checking the CSRF token or counting again, which cost a client that keeps sending
whatever the answer (a script) as much server time as half a move each. The counting needs
nothing from here (each process that has not seen the refusal yet counts it and refuses it
itself), so the memory is only a cache: it is emptied when it holds MAX_REMEMBERED clients.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from flask import Flask, render_template
from werkzeug.exceptions import HTTPException, TooManyRequests
from werkzeug.http import parse_cookie

from webapp.i18n import LANG_COOKIE

MAX_REMEMBERED = 100_000
#: Seconds a client that comes back while refused waits for its answer, at most: a script that
#: ignores Retry-After then sends a request a second per connection, not hundreds.
HOLD = 1.0
#: The attribute naming the budget of a view that has one (set by `webapp.traffic.budgets`).
BUDGET_ATTRIBUTE = "budget_scope"
ADDRESS, SESSION = "address", "session"


class RefusalGate:
    """Wraps `wsgi_app`, the WSGI callable in front of `app`; `message(error)` is what a refused
    player reads."""

    def __init__(self, app: Flask, wsgi_app: Callable, message: Callable[[HTTPException], str],
                 max_held: int) -> None:
        self.app, self.wsgi_app, self.message = app, wsgi_app, message
        self.until: dict[tuple[str, str, str], float] = {}  # (budget, kind, client) -> time
        self.answer = lru_cache(maxsize=256)(self._answer)
        self.holding = threading.BoundedSemaphore(max_held)

    def remember(self, budget: str, kind: str, client: str, until: float) -> None:
        """`client` (its address or session cookie, as `kind` says) is refused on `budget`
        until `until` (time.time())."""
        if len(self.until) >= MAX_REMEMBERED:
            self.until.clear()
        self.until[budget, kind, client] = until

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if self.until and environ.get("REQUEST_METHOD") == "POST":
            cookies = parse_cookie(environ)
            budget = self._budget(environ)
            left = self._left(budget, environ, cookies)
            if left and self._hold(left):
                left = self._left(budget, environ, cookies)  # a page a moment early goes on now
            if left:
                return self._refuse(environ, start_response, max(1, round(left)), cookies)
        return self.wsgi_app(environ, start_response)

    def _refuse(self, environ: dict[str, Any], start_response: Callable, wait: int,
                cookies: dict[str, str]) -> Iterable[bytes]:
        """Answer with the app's 429 in the client's language, to come back in `wait` seconds."""
        body, headers = self.answer(environ.get("PATH_INFO", "/"), cookies.get(LANG_COOKIE, ""),
                                    environ.get("HTTP_ACCEPT_LANGUAGE", ""))
        start_response("429 TOO MANY REQUESTS", [*headers, ("Retry-After", str(wait))])
        return [body]

    def _hold(self, left: float) -> bool:
        """Hold a client that came back `left` seconds before its wait is over, for that long
        or HOLD seconds at most, while fewer than REFUSAL_HOLD_THREADS threads of this process
        are holding one; whether it was held."""
        if not self.holding.acquire(blocking=False):
            return False
        try:
            time.sleep(min(HOLD, left))
        finally:
            self.holding.release()
        return True

    def _budget(self, environ: dict[str, Any]) -> str | None:
        """The budget the request draws on, None if it has none."""
        try:
            endpoint, _ = self.app.url_map.bind_to_environ(environ).match()
        except HTTPException:
            return None
        return getattr(self.app.view_functions.get(endpoint), BUDGET_ATTRIBUTE, None)

    def _left(self, budget: str | None, environ: dict[str, Any], cookies: dict[str, str]
              ) -> float:
        """Seconds until the client may draw on `budget` again; 0 if it may now (or the
        request has no budget)."""
        if budget is None:
            return 0.0
        cookie = cookies.get(self.app.config["SESSION_COOKIE_NAME"], "")
        ends = max(self.until.get((budget, ADDRESS, environ.get("REMOTE_ADDR", "")), 0.0),
                   self.until.get((budget, SESSION, cookie), 0.0) if cookie else 0.0)
        return max(0.0, ends - time.time())

    def _answer(self, path: str, lang: str, accept_language: str
                ) -> tuple[bytes, list[tuple[str, str]]]:
        """The refusal's message fragment for the route at `path` in the client's language and
        its headers, as the app gives them."""
        headers = {"Cookie": f"{LANG_COOKIE}={lang}", "Accept-Language": accept_language}
        with self.app.test_request_context(path, method="POST", headers=headers):
            response = self.app.process_response(self.app.make_response(
                render_template("partials/message.html", message=self.message(TooManyRequests()))))
        return response.get_data(), [(name, value) for name, value in response.headers.items()
                                     if name not in ("Set-Cookie", "Retry-After")]
