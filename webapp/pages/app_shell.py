"""The installable app: the web app manifest, the service worker and the page it shows offline.

The service worker keeps only the static shell (every file under ``static/``) and the offline
page of each language; pages and fragments always come from the server, so the rules stay there
and no stale board or CSRF token is ever served. The server prepends ``SHELL`` (what to keep, and
a version that changes with any static file or template) to the worker's script, so the browser
installs a new worker whenever the shell changes.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from flask import Blueprint, current_app, render_template, url_for
from werkzeug.wrappers import Response

from webapp.i18n import LANG_RULE, LANGUAGES, lazy_gettext

WORKER_FILE = "service-worker.js"
#: The page colour of each theme (static/css/base.css): the browser's bars and the splash screen.
THEME_COLOURS = {"light": "#faf7f1", "dark": "#1d1a17"}
#: (file under static/, sizes, purpose) of each icon the manifest lists.
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
DESCRIPTION = lazy_gettext(
    "2048 in your browser: slide the tiles, join equal numbers and build a 2048 tile."
)

bp = Blueprint("app_shell", __name__)
bp.add_app_template_global(THEME_COLOURS, "theme_colours")
bp.add_app_template_global(DESCRIPTION, "site_description")


@bp.get(f"/{LANG_RULE}/manifest.webmanifest")
def manifest(lang: str) -> Response:
    """The web app manifest; the installed app opens the game in this language."""
    data = {
        "id": "/",
        "name": "2048",
        "short_name": "2048",
        "description": str(DESCRIPTION),
        "lang": lang,
        "start_url": url_for("game.index_in_language", lang=lang),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOURS["light"],
        "background_color": THEME_COLOURS["light"],
        "icons": [
            {"src": url_for("static", filename=path), "sizes": sizes, "type": "image/png",
             "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    return current_app.response_class(json.dumps(data, ensure_ascii=False),
                                      mimetype="application/manifest+json")


@bp.get(f"/{LANG_RULE}/offline")
def offline(lang: str) -> str:
    """What the service worker shows when a page cannot be loaded: the last board, offline."""
    return render_template("pages/offline.html", lang=lang)


@bp.get(f"/{WORKER_FILE}")
def service_worker() -> Response:
    """The service worker, served at the root so that it controls every page."""
    shell = {
        "version": shell_version(),
        "files": [url_for("static", filename=name) for name in shell_files()],
        "offline": {lang: url_for(".offline", lang=lang) for lang in LANGUAGES},
    }
    worker = _static_folder().joinpath(WORKER_FILE).read_text()
    script = f"const SHELL = {json.dumps(shell)};\n{worker}"
    response = current_app.response_class(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


def _static_folder() -> Path:
    return Path(current_app.static_folder or "")


def shell_files() -> list[str]:
    """Every static file but the worker itself, as paths under static/."""
    static = _static_folder()
    return sorted(
        path.relative_to(static).as_posix()
        for path in static.rglob("*")
        if path.is_file() and path.name != WORKER_FILE
    )


@cache
def _version_of(static: Path, templates: Path) -> str:
    digest = hashlib.sha256()
    for folder in (static, templates):
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                digest.update(path.relative_to(folder).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def shell_version() -> str:
    """A digest of every static file and template, read once per process."""
    return _version_of(_static_folder(), Path(current_app.template_folder or ""))
