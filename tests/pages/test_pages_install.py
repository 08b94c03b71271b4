"""The installable app: the manifest, its icons, the service worker's script and the offline page."""

import json
import re
import struct

import pytest

from tests.pages.pages_html import parse
from tests.pages.pages_site import LANGUAGES, PAGES
from webapp.pages import app_shell

MODULE_IMPORT = re.compile(r'^import .* from "\./([^"]+)";$', re.M)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_manifest_makes_the_game_installable(client, lang):
    answer = client.get(f"/{lang}/manifest.webmanifest")
    assert answer.mimetype == "application/manifest+json"
    manifest = json.loads(answer.text)
    assert manifest["name"] == manifest["short_name"] == "2048"
    assert manifest["lang"] == lang and manifest["description"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == f"/{lang}/" and manifest["scope"] == "/"
    assert client.get(manifest["start_url"]).status_code == 200
    assert manifest["theme_color"] == manifest["background_color"] == app_shell.THEME_COLOURS["light"]
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(icons)
    for (sizes, _purpose), icon in icons.items():
        image = client.get(icon["src"])
        assert image.status_code == 200 and icon["type"] == image.mimetype == "image/png"
        assert "x".join(map(str, png_size(image.data))) == sizes


@pytest.mark.parametrize("path", ["/"] + [f"/{lang}/{page}" for lang in LANGUAGES for page in PAGES])
def test_every_page_links_its_manifest_and_registers_the_worker(client, path):
    root = parse(client.get(path).text)
    lang = root.find("html").attrs["lang"]
    links = {link.attrs["rel"]: link.attrs["href"] for link in root.find_all("link")}
    assert links["manifest"] == f"/{lang}/manifest.webmanifest"
    metas = [meta.attrs for meta in root.find_all("meta")]
    assert {"name": "service-worker", "content": "/service-worker.js"} in metas
    assert {meta["content"] for meta in metas if meta.get("name") == "theme-color"} == \
        set(app_shell.THEME_COLOURS.values())
    scripts = {script.attrs.get("src") for script in root.find_all("script")}
    assert "/static/js/install.js" in scripts


def worker_shell(client) -> dict:
    answer = client.get("/service-worker.js")
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    first_line = answer.text.split("\n", 1)[0]
    assert first_line.startswith("const SHELL = ") and first_line.endswith(";")
    return json.loads(first_line.removeprefix("const SHELL = ").removesuffix(";"))


def loaded_assets(client, path: str) -> set[str]:
    """The stylesheets, scripts (with the modules they import) and icons a page loads."""
    root = parse(client.get(path).text)
    found = {node.attrs.get("href") or node.attrs.get("src") for node in root.iter()
             if node.tag in ("link", "script") and (node.attrs.get("href") or node.attrs.get("src"))
             and node.attrs.get("rel") != "manifest"}
    pending = [url for url in found if url.endswith(".js")]
    while pending:
        url = pending.pop()
        for name in MODULE_IMPORT.findall(client.get(url).text):
            imported = f"{url.rsplit('/', 1)[0]}/{name}"
            if imported not in found:
                found.add(imported)
                pending.append(imported)
    return found


def test_the_worker_keeps_every_file_the_pages_load(client):
    shell = worker_shell(client)
    every_asset = set().union(*(loaded_assets(client, path)
                                for path in ("/", "/en/rules", "/en/offline", "/en/no-such-page")))
    assert every_asset <= set(shell["files"])
    assert all(client.get(url).status_code == 200 for url in shell["files"])
    assert "/service-worker.js" not in shell["files"]
    assert set(shell["offline"]) == set(LANGUAGES)


def test_the_shell_version_follows_the_files(tmp_path):
    for name, text in (("a", "body {}"), ("b", "body { color: red }")):
        (tmp_path / name / "static").mkdir(parents=True)
        (tmp_path / name / "templates").mkdir()
        (tmp_path / name / "static" / "base.css").write_text(text)
    versions = {app_shell._version_of(tmp_path / name / "static", tmp_path / name / "templates")
                for name in ("a", "b")}
    assert len(versions) == 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_offline_page_carries_no_token_and_no_controls(client, lang):
    answer = client.get(f"/{lang}/offline")
    root = parse(answer.text)
    assert root.find("html").attrs["lang"] == lang
    assert "csrf-token" not in answer.text and 'id="controls"' not in answer.text
    assert not root.find_all("button")
    notice = root.find("div", "overlay-offline")
    assert "hidden" not in notice.attrs and notice.text
    assert client.get_cookie("session") is None


def test_the_game_page_has_the_offline_notice_hidden(client):
    notice = parse(client.get("/").text).find("div", "overlay-offline")
    assert "hidden" in notice.attrs
