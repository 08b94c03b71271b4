"""Browser fixtures: the app served by a real server thread on a free loopback port, a tmp
instance folder (so a restart on the same folder keeps the games), and Chromium's launch args."""

import os
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route
from werkzeug.serving import make_server

from engine import Game
from tests.browser.browser_support import session_id

DEBIAN_CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    args = {
        **browser_type_launch_args,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"],
    }
    if os.path.exists(DEBIAN_CHROMIUM):
        args["executable_path"] = DEBIAN_CHROMIUM
    return args


class SlowAnswers:
    """WSGI middleware delaying every POST, so the page's presses outrun the server."""

    def __init__(self, app, seconds: float) -> None:
        self.app, self.seconds = app, seconds

    def __call__(self, environ, start_response):
        if environ["REQUEST_METHOD"] == "POST":
            time.sleep(self.seconds)
        return self.app(environ, start_response)


class LiveServer:
    """The game app on a werkzeug server thread; restart() serves a new app on the same folder."""

    def __init__(self, build_app, store_type, instance_path: Path) -> None:
        self.build_app, self.store_type, self.instance_path = build_app, store_type, instance_path
        self.port = 0
        self.post_delay = 0.0
        self._start()

    def _start(self) -> None:
        self.app = self.build_app(self.instance_path)
        if self.post_delay:
            self.app.wsgi_app = SlowAnswers(self.app.wsgi_app, self.post_delay)
        self.store = self.store_type(self.app)
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def restart(self, post_delay: float = 0.0) -> None:
        """Stop, then serve a new app on the same instance folder and port."""
        self.stop()
        self.post_delay = post_delay
        self._start()

    def sid_of(self, context) -> str:
        """The session id a browser context holds."""
        return session_id(context)


@pytest.fixture
def serve(tmp_path, make_web_app, session_store):
    """serve(**config): the game on a live server, with these settings over the tests' own."""
    started = []

    def start(**config) -> LiveServer:
        build = (lambda path: make_web_app(path, **config)) if config else make_web_app
        started.append(LiveServer(build, session_store, tmp_path / f"instance{len(started)}"))
        return started[-1]

    yield start
    for live in started:
        live.stop()


@pytest.fixture
def server(serve):
    return serve()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def open_game(server):
    """open_game(page, rows=None, seed=None): load the game page and return the session id;
    with rows, the stored game is first replaced by that position."""

    def open_page(page, rows=None, seed=None) -> str:
        page.goto(server.url)
        sid = server.sid_of(page.context)
        if rows is not None:
            server.store.update(sid, game=Game.from_rows(rows, seed=seed))
            page.reload()
        return sid

    return open_page


#: The game's requests a test may intercept (see `Routes`).
ROUTED = ("**/move", "**/solver-move")


class Routes:
    """Handlers for the page's requests to the game's routes, set on the page before it loads
    anything; until a test gives one, a request goes on unchanged. Chromium takes a route given
    once a document has loaded into that document's renderer a moment later, and a request sent
    in that moment goes through unrouted (a held move reached the server about one run in five
    of a routed test under load); a route set before the first load has no such moment."""

    def __init__(self, page: Page) -> None:
        self._handlers: dict[str, object] = {}
        for pattern in ROUTED:
            page.route(pattern, self._handler_for(pattern))

    def _handler_for(self, pattern: str):
        def handle(route: Route) -> None:  # one parameter: Playwright passes the route alone
            self._handlers.get(pattern, Route.continue_)(route)
        return handle

    def route(self, pattern: str, handler) -> None:
        """Send the page's requests matching `pattern` (one of ROUTED) to `handler(route)`."""
        if pattern not in ROUTED:
            raise ValueError(f"{pattern} is not set up before the page loads: add it to ROUTED")
        self._handlers[pattern] = handler

    def unroute(self, pattern: str) -> None:
        """Let the page's requests matching `pattern` go on unchanged again."""
        self._handlers.pop(pattern, None)


@pytest.fixture
def routes(page: Page) -> Routes:
    """The page's routes, set before the test loads it (see `Routes`)."""
    return Routes(page)
