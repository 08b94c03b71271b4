"""Static text files travel compressed to browsers that accept it and arrive byte for byte; HTML
(pages and a move's fragment) travels as it is; a browser that accepts nothing gets the file."""

from __future__ import annotations

import re
import zlib
import brotli
import pytest

from harness.http_client import CHROMIUM_ENCODINGS
from webapp import PROJECT_ROOT

ASSET = re.compile(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"')


def static_file(url: str) -> bytes:
    return (PROJECT_ROOT / url.lstrip("/")).read_bytes()


def page_assets(client) -> list[str]:
    """The stylesheets and scripts the game page names."""
    urls = sorted(set(ASSET.findall(client.get("/").text)))
    assert any(url.endswith(".css") for url in urls) and any(url.endswith(".js") for url in urls)
    return urls


def test_every_asset_of_the_page_arrives_in_brotli_byte_for_byte(client):
    for url in page_assets(client):
        answer = client.get(url, headers=CHROMIUM_ENCODINGS)
        assert answer.status_code == 200, url
        assert answer.headers["Content-Encoding"] == "br", url
        assert "Accept-Encoding" in answer.headers["Vary"]
        assert brotli.decompress(answer.data) == static_file(url), url


def test_compressed_scripts_and_stylesheets_are_under_half_their_size(client):
    sent = raw = 0
    for url in page_assets(client):
        sent += len(client.get(url, headers=CHROMIUM_ENCODINGS).data)
        raw += len(static_file(url))
    assert sent < raw / 2


def test_a_client_that_accepts_no_encoding_gets_the_file_itself(client):
    url = "/static/js/queue.js"
    answer = client.get(url)
    assert "Content-Encoding" not in answer.headers
    assert answer.data == static_file(url)


def test_deflate_for_a_client_without_brotli(client):
    url = "/static/css/game.css"
    answer = client.get(url, headers={"Accept-Encoding": "deflate"})
    assert answer.headers["Content-Encoding"] == "deflate"
    assert zlib.decompress(answer.data) == static_file(url)


def test_a_compressed_file_revalidates_to_a_304(client):
    url = "/static/js/queue.js"
    first = client.get(url, headers=CHROMIUM_ENCODINGS)
    again = client.get(url, headers={**CHROMIUM_ENCODINGS,
                                     "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.data == b""


@pytest.mark.parametrize("path", ["/service-worker.js", "/en/manifest.webmanifest"])
def test_the_app_shell_travels_compressed(client, path):
    plain = client.get(path)
    compressed = client.get(path, headers=CHROMIUM_ENCODINGS)
    assert compressed.headers["Content-Encoding"] == "br"
    assert brotli.decompress(compressed.data) == plain.data


def test_pages_and_move_fragments_travel_as_they_are(client, player):
    page = client.get("/", headers=CHROMIUM_ENCODINGS)
    assert page.status_code == 200 and "Content-Encoding" not in page.headers
    client.environ_base["HTTP_ACCEPT_ENCODING"] = CHROMIUM_ENCODINGS["Accept-Encoding"]
    move = player.move("left", 1)
    assert move.status_code == 200 and "Content-Encoding" not in move.headers
    assert b'id="board"' in move.data

