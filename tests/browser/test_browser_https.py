"""Over HTTPS (a real TLS server on loopback, its certificate made for the run): the page gets
HSTS, and every cookie the game sets, the server's and the page script's best scores alike, is
Secure and SameSite=Lax. Over plain HTTP the same cookies are not Secure (the control)."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from werkzeug.serving import make_server

pytestmark = pytest.mark.browser

ONE_YEAR = 365 * 24 * 3600
GAME_COOKIES = {"session", "best", "best_unassisted"}


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[str, str]:
    """A self-signed certificate for 127.0.0.1 and its key (openssl, as on any Debian)."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return str(cert), str(key)


@pytest.fixture
def https_url(tmp_path: Path, make_web_app, certificate):
    """The game app served over TLS on a free loopback port."""
    server = make_server("127.0.0.1", 0, make_web_app(tmp_path / "instance"), threaded=True,
                         ssl_context=certificate)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"https://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


def play_a_move(page: Page, url: str):
    """Load the game, play a move and let the page remember the best scores; the page's answer."""
    response = page.goto(url)
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):  # one of them moves
        page.keyboard.press(key)
    expect(page.locator("#moves")).not_to_have_text("0")
    return response


def game_cookies(page: Page) -> dict[str, dict]:
    cookies = {cookie["name"]: cookie for cookie in page.context.cookies()}
    assert GAME_COOKIES <= set(cookies)
    return {name: cookies[name] for name in GAME_COOKIES}


def test_over_https_hsts_is_sent_and_every_game_cookie_is_secure_and_lax(new_context, https_url):
    page = new_context(ignore_https_errors=True).new_page()
    response = play_a_move(page, https_url)
    hsts = response.headers["strict-transport-security"]
    assert int(hsts.split("max-age=")[1].split(";")[0]) >= ONE_YEAR
    for name, cookie in game_cookies(page).items():
        assert cookie["secure"] and cookie["sameSite"] == "Lax", name
    assert game_cookies(page)["session"]["httpOnly"]


def test_over_plain_http_no_cookie_claims_secure(page: Page, server):
    response = play_a_move(page, server.url)
    assert "strict-transport-security" not in response.headers
    for name, cookie in game_cookies(page).items():
        assert not cookie["secure"] and cookie["sameSite"] == "Lax", name
