"""The shipped nginx configuration (deploy/nginx/), run by Debian's nginx on loopback in front of
the production gunicorn (PROXY_HOPS=1): the security headers on every answer, nginx's own
errors included, once each and the app's values; the client's real address reaching the app
whatever the client claims; plain HTTP redirected; static files revalidated and gzipped; a flood
refused with the page's Retry-After. How it holds players' latency under a flood:
bench/fairness.py --through-nginx."""

from __future__ import annotations

import gzip
import http.client
import socket
import sqlite3
import ssl
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from harness import ROOT
from harness.http_client import HttpClient
from harness.live_server import LiveServer, production_server
from harness.player import Player
from harness.nginx_server import FrontDoor
from harness.ports import free_port
from webapp.security import SECURE_HEADERS

pytestmark = pytest.mark.slow

TLS = ssl._create_unverified_context()  # the run's own self-signed certificate


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes


@dataclass
class Deployed:
    app: LiveServer
    door: FrontDoor

    def ask(self, method: str, path: str, headers: dict[str, str] | None = None,
            body: bytes | None = None, source: str = "127.0.0.1") -> Answer:
        """One request over HTTPS to nginx, from the loopback address `source`."""
        connection = http.client.HTTPSConnection("127.0.0.1", self.door.https_port, context=TLS,
                                                 source_address=(source, 0), timeout=30)
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        result = Answer(answer.status, answer.headers, answer.read())
        connection.close()
        return result

    def counter_keys(self) -> set[str]:
        """The keys of the budgets' counters the app keeps (each names its client address)."""
        limits = self.app.sqlite_path.with_name("games-limits.sqlite3")
        with sqlite3.connect(limits) as counters:
            return {key for (key,) in counters.execute("SELECT key FROM counters")}

    def raw(self, request: bytes) -> Answer:
        """What nginx answers to bytes no HTTP client would send."""
        with TLS.wrap_socket(socket.create_connection(("127.0.0.1", self.door.https_port)),
                             server_hostname="127.0.0.1") as tls:
            tls.sendall(request)
            data = b""
            while chunk := tls.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("latin-1").split("\r\n")
        headers = http.client.HTTPMessage()
        for line in lines:
            name, _, value = line.partition(": ")
            headers[name] = value
        return Answer(int(status_line.split()[1]), headers, body)


@pytest.fixture(scope="module")
def deployed() -> Iterator[Deployed]:
    with production_server(PROXY_HOPS="1", SOLVER_WARM_UP="0",
                           PAGE_RATE_LIMIT="120/minute") as app, FrontDoor(app.port) as door:
        yield Deployed(app, door)


def assert_secure_headers_once(answer: Answer) -> None:
    for name, value in SECURE_HEADERS.items():
        assert answer.headers.get_all(name) == [value], (answer.status, name)


def test_the_shipped_configuration_passes_nginx_t():
    checked = FrontDoor(free_port()).check()
    assert checked.returncode == 0, checked.stderr


def test_the_app_s_answers_and_nginx_s_static_files_carry_the_headers_once(deployed):
    for method, path, status in (("GET", "/", 200), ("GET", "/no-such-page", 404),
                                 ("GET", "/move", 405), ("GET", "/static/css/base.css", 200)):
        answer = deployed.ask(method, path)
        assert answer.status == status
        assert_secure_headers_once(answer)


@pytest.mark.parametrize("request_bytes, status", [
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414),
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"x" * 9000 + b"\r\n\r\n", 400),
    (b"GARBAGE\r\n\r\n", 400),
    (b"POST /move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 9000\r\n\r\n" + b"d" * 9000,
     413),
], ids=["long URL", "header too large", "bad request line", "body too large"])
def test_nginx_s_own_errors_carry_the_headers(deployed, request_bytes, status):
    """gunicorn's own 400, 414 and 431 carry none (they never reach Flask); nginx answers
    these first, with the headers."""
    answer = deployed.raw(request_bytes)
    assert answer.status == status
    assert_secure_headers_once(answer)


def test_the_app_sees_the_client_s_address_and_https_whatever_the_client_claims(deployed):
    """From 127.0.0.2, claiming 203.0.113.9 in X-Forwarded-For and http in X-Forwarded-Proto:
    the page budget counts 127.0.0.2 (not nginx's 127.0.0.1, not the claim), and the app's
    cookie is Secure, as an HTTPS request's is."""
    before = deployed.counter_keys()
    answer = deployed.ask("GET", "/", source="127.0.0.2", headers={
        "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "http"})
    assert answer.status == 200
    assert "Secure" in answer.headers["Set-Cookie"]
    counted = deployed.counter_keys() - before
    assert counted and all("{127.0.0.2}" in key for key in counted)


def test_a_page_s_moves_are_played_through_nginx_on_any_port(deployed):
    """Over HTTPS the app's CSRF check compares the page's origin (Referer) with the request's
    host: nginx passes the Host the browser sent, port included ($host would drop it, and every
    move would be a 400 on a port other than 443)."""
    player = Player(HttpClient(deployed.door.https_port, source="127.0.0.5", tls=True))
    for seq, direction in enumerate(("left", "up", "right", "down"), start=1):
        answer = player.move(direction)
        assert answer.status_code == 200 and int(answer.headers["X-Seq"]) <= seq


def test_plain_http_is_sent_to_https(deployed):
    connection = http.client.HTTPConnection("127.0.0.1", deployed.door.http_port, timeout=30)
    connection.request("GET", "/games?page=2")
    answer = connection.getresponse()
    assert answer.status == 301
    assert answer.headers["Location"] == "https://127.0.0.1/games?page=2"


def test_static_files_are_revalidated(deployed):
    first = deployed.ask("GET", "/static/js/queue.js")
    assert first.headers["Cache-Control"] == "no-cache" and first.headers["ETag"]
    again = deployed.ask("GET", "/static/js/queue.js",
                         headers={"If-None-Match": first.headers["ETag"]})
    assert again.status == 304


def test_static_text_files_travel_gzipped(deployed):
    for path in ("/static/js/queue.js", "/static/css/game.css"):
        answer = deployed.ask("GET", path, headers={"Accept-Encoding": "gzip"})
        assert answer.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(answer.body) == (ROOT / path.lstrip("/")).read_bytes()


def test_a_flood_from_one_address_is_refused_by_nginx_with_retry_after(deployed):
    """Past 100 requests a second and a burst of 200, on one kept-alive connection."""
    connection = http.client.HTTPSConnection("127.0.0.1", deployed.door.https_port,
                                             context=TLS, source_address=("127.0.0.3", 0))
    statuses = []
    for _ in range(400):
        connection.request("GET", "/static/favicon.svg")
        answer = connection.getresponse()
        body = answer.read()
        statuses.append(answer.status)
        if answer.status == 429:
            break
    connection.close()
    assert statuses[-1] == 429 and statuses.count(200) >= 200
    assert answer.headers["Retry-After"] == "1" and b"Too many requests" in body
    for name, value in SECURE_HEADERS.items():
        assert answer.headers.get_all(name) == [value]


def test_gunicorn_down_is_nginx_s_page_with_the_headers():
    with FrontDoor(free_port()) as door:
        answer = Deployed(None, door).ask("GET", "/")  # type: ignore[arg-type]
    assert answer.status == 502 and b"Back in a moment" in answer.body
    assert answer.headers["Retry-After"] == "1"
    assert_secure_headers_once(answer)
