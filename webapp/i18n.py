"""Which language a request is answered in, and the route that remembers the player's choice.

Order: a language prefix in the URL (``/pl/rules``), then the remembered ``lang`` cookie, then the
browser's Accept-Language, then English.
"""

from pathlib import Path

from flask import Blueprint, Flask, current_app, redirect, request, url_for
from flask_babel import Babel, get_locale
from werkzeug.wrappers import Response

#: Every language the site speaks, code -> its own name; the first is the fall-back.
LANGUAGES: dict[str, str] = {"en": "English", "pl": "Polski", "ja": "日本語"}
LANG_COOKIE = "lang"
LANG_COOKIE_MAX_AGE = 365 * 24 * 3600
TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "translations"

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The language for the current request."""
    from_url = (request.view_args or {}).get("lang")
    if from_url in LANGUAGES:
        return from_url
    if request.cookies.get(LANG_COOKIE) in LANGUAGES:
        return request.cookies[LANG_COOKIE]
    return request.accept_languages.best_match(tuple(LANGUAGES)) or next(iter(LANGUAGES))


def current_language() -> str:
    """The selected language code, as used in URLs and ``<html lang>``."""
    return str(get_locale())


@bp.get("/language/<lang>")
def choose_language(lang: str) -> Response:
    """Remember the chosen language and go back to the game."""
    response = redirect(url_for("game.index"))
    if lang in LANGUAGES:
        secure = current_app.config["SESSION_COOKIE_SECURE"] or request.is_secure
        response.set_cookie(LANG_COOKIE, lang, max_age=LANG_COOKIE_MAX_AGE, samesite="Lax",
                            httponly=True, secure=secure)
    return response


def init_i18n(app: Flask) -> None:
    """Set up Flask-Babel with the project's catalogs; templates get the language helpers."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS_DIR))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(current_language=current_language, languages=LANGUAGES)
