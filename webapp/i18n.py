"""Which language a request is answered in, and the route that remembers the player's choice.

Order: a language prefix in the URL (``/pl/rules``, also on a page that does not exist), then the
remembered ``lang`` cookie, then the browser's Accept-Language, then English.

A page speaks one language to the end: the game's and the history's routes also answer under a
prefix (``/pl/move``, ``/pl/games/<id>``), and every URL a page builds for them carries the
language the page is drawn in, so its fragments, redirects and links come back in that language
whatever the cookie or the browser says.

Translations go through the request's `catalog`, not Flask-Babel's look-ups, in code and in
templates alike; that leans on Flask-Babel's and Jinja's internals: `webapp.overrides` lists
them, with the versions.
"""

from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from babel.core import Locale
from babel.lists import format_list
from babel.numbers import format_compact_decimal, format_decimal
from babel.support import NullTranslations
from flask import (Blueprint, Flask, current_app, g, has_request_context, redirect, request,
                   url_for)
from flask_babel import Babel, LazyString, get_locale, get_translations
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response

#: Every language the site speaks, code -> its own name; the first is the fall-back.
LANGUAGES: dict[str, str] = {"en": "English", "pl": "Polski", "ja": "日本語"}
#: The URL rule of a language prefix, for routes that carry one (``/<lang>/rules``).
LANG_RULE = f"<any({', '.join(LANGUAGES)}):lang>"
LANG_COOKIE = "lang"
LANG_COOKIE_MAX_AGE = 365 * 24 * 3600
TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "translations"
_LOCALES = {code: Locale.parse(code) for code in LANGUAGES}
#: Languages that group a number's digits only from five digits on: 1420 but 14 200 in Polish
#: (CLDR's minimumGroupingDigits of 2, which Babel does not apply).
GROUPED_FROM_FIVE_DIGITS = frozenset({"pl"})
#: Where an app keeps each language's messages, locale -> catalog (`catalog`).
CATALOGS = "catalogs"

bp = Blueprint("i18n", __name__)


def url_language() -> str | None:
    """The language the URL's first segment names, if it names one."""
    prefix = request.path.split("/", 2)[1]
    return prefix if prefix in LANGUAGES else None


def select_locale() -> Locale:
    """The language for the current request (one `Locale` a language, made once: Flask-Babel
    would parse a code again for every request)."""
    if from_url := url_language():
        return _LOCALES[from_url]
    if (remembered := request.cookies.get(LANG_COOKIE)) in LANGUAGES:
        return _LOCALES[remembered]
    return _LOCALES[_accepted_language(request.headers.get("Accept-Language", ""))]


@lru_cache(maxsize=256)
def _accepted_language(header: str) -> str:
    """The language of ours an Accept-Language header rates highest, a regional tag counting
    as its language ("pl-PL" as "pl"), English if none. A browser sends the same header every
    time, so its answer is remembered rather than parsed again."""
    for tag, quality in parse_accept_header(header, LanguageAccept):  # best rated first
        language = tag.replace("_", "-").split("-")[0].lower()
        if quality > 0 and language in LANGUAGES:  # q=0 says "not this one"
            return language
    return next(iter(LANGUAGES))


def current_language() -> str:
    """The selected language code, as used in URLs and ``<html lang>``."""
    return str(get_locale())


def catalog() -> NullTranslations:
    """The messages of the request's language, looked up once per request and language (a
    locale forced for a while, ``flask_babel.force_locale``, gets its own), not again for each
    string as Flask-Babel does. The locale in force is read from Flask-Babel's state of the
    request (``g._flask_babel``, where its `get_locale` keeps it once chosen; `get_locale`
    itself costs as much again as a translation); ``g`` is looked up once (each use of its
    proxy costs as much as the check) and read with ``get`` (a missing name raises, which costs
    more). A language's messages never change while the app runs: the app keeps them by locale
    (`CATALOGS`), where Flask-Babel's look-up through its domain was half of a request's first
    translation."""
    state = g._get_current_object()
    found = state.get("catalog")
    if found is None or found[0] is not getattr(state.get("_flask_babel"), "babel_locale", None):
        locale, kept = get_locale(), current_app.extensions[CATALOGS]
        if (messages := kept.get(locale)) is None:
            messages = kept[locale] = get_translations()
        found = state.catalog = (locale, messages)
    return found[1]


def translate(message: str, **variables: object) -> str:
    """`message` in the request's language, its variables formatted in when there are any:
    what ``flask_babel.gettext`` answers, through the request's `catalog`."""
    text = catalog().ugettext(message)
    return text % variables if variables else text


_ = translate  # the name pybabel extracts strings from


def lazy_gettext(message: str) -> LazyString:
    """`message` translated each time it is shown, through the request's `catalog`: for text
    fixed when a module loads (a direction's name, an error's title) that every request shows
    in its own language. Flask-Babel's own lazy strings find the catalog again on each use;
    the name is theirs, so pybabel extracts these strings with the same keyword."""
    return LazyString(translate, message)


def markup_gettext(message: str, **variables: object) -> Markup:
    """`message` translated as a template's ``_()`` translates it, for text a view builds and a
    template shows: markup, its variables escaped, ``%%`` read as ``%``. A text with no ``%``
    in it is markup as it is: formatting it would change nothing and cost several times the
    look-up."""
    text = Markup(catalog().ugettext(message))
    return text % variables if "%" in text else text


def markup_ngettext(singular: str, plural: str, number: int, **variables: object) -> Markup:
    """The form of `singular` / `plural` that `number` takes in the request's language, as
    `markup_gettext` translates; `num` among the variables is `number` unless given."""
    text = catalog().ungettext(singular, plural, number)
    return Markup(text) % {"num": number, **variables}


def spoken_list(items: Iterable[object], locale: Locale | None = None) -> str:
    """Items as a list in the reader's language (`locale`, the request's by default): "2, 4, 8"
    in English, "2、4、8" in Japanese."""
    return format_list([str(item) for item in items], style="standard-narrow",
                       locale=locale or get_locale())


@lru_cache(maxsize=4096)
def _spoken_row(row: tuple[int, ...], empty: str, locale: Locale) -> str:
    """A board's row as `spoken_list` lists it, an empty cell read as `empty`; remembered: rows
    repeat from move to move, and Babel finds the language's pattern again for each list."""
    return spoken_list((value or empty for value in row), locale)


def number_text(number: float) -> str:
    """`number` written the request's language's way: "14,200" in English, "14 200" and
    "1420" in Polish."""
    return _number_text(number, get_locale())


@lru_cache(maxsize=4096)
def _number_text(number: float, locale: Locale) -> str:
    """`number_text` in `locale`, remembered: the game's answers write the same bests, gains
    and move counts again and again, and Babel's formatting costs twenty look-ups."""
    grouped = abs(number) >= 10_000 or locale.language not in GROUPED_FROM_FIVE_DIGITS
    return format_decimal(number, locale=locale, group_separator=grouped)


def count_in_words(number: int) -> str:
    """`number` cut down to its first two digits and written in words the request's language's
    way, for prose that says "more than": 3,811,892 is "3.8 million", "3,8 miliona", "380万"."""
    unit = 10 ** max(0, len(str(number)) - 2)
    return format_compact_decimal(number // unit * unit, format_type="long",
                                  locale=get_locale(), fraction_digits=1)


def board_label(title: str, rows: Iterable[Iterable[int]]) -> str:
    """What a screen reader says for a drawn 4x4 board: its title, then each row's cells. The
    sentence is translated whole and the cells are listed the language's way, so no separator
    is English: "Board. Row 1: 2, empty, …", Japanese "盤面。1段目：2、空き、…"."""
    empty, locale = _("empty"), get_locale()
    spoken = [_spoken_row(tuple(row), empty, locale) for row in rows]
    return _("%(title)s. Row 1: %(row1)s. Row 2: %(row2)s. Row 3: %(row3)s. Row 4: %(row4)s.",
             title=title, row1=spoken[0], row2=spoken[1], row3=spoken[2], row4=spoken[3])


@pass_eval_context
def template_gettext(eval_context: EvalContext, message: str, **variables: object) -> str:
    """A template's ``_()``, ``gettext()`` and ``{% trans %}``: what Jinja's newstyle gettext
    answers (markup where the template escapes, its variables always formatted in), through
    the request's `catalog`, without Jinja's two calls through the template's context on the
    way (a third of a translation's cost). No template uses ``pgettext``: it stays
    Flask-Babel's."""
    if eval_context.autoescape:
        return markup_gettext(message, **variables)
    return catalog().ugettext(message) % variables


@pass_eval_context
def template_ngettext(eval_context: EvalContext, singular: str, plural: str, number: int,
                      **variables: object) -> str:
    """A template's ``ngettext()``, as `template_gettext` translates; `num` among the
    variables is `number` unless given."""
    if eval_context.autoescape:
        return markup_ngettext(singular, plural, number, **variables)
    return catalog().ungettext(singular, plural, number) % {"num": number, **variables}


@bp.get("/language/<lang>")
def choose_language(lang: str) -> Response:
    """Remember the chosen language and go back to the game, in that language."""
    if lang not in LANGUAGES:
        return redirect(url_for("game.index"))
    response = redirect(url_for("game.index_in_language", lang=lang))
    secure = current_app.config["SESSION_COOKIE_SECURE"] or request.is_secure
    response.set_cookie(LANG_COOKIE, lang, max_age=LANG_COOKIE_MAX_AGE, samesite="Lax",
                        httponly=True, secure=secure)
    return response


def speak_page_language(app: Flask, blueprints: Iterable[str]) -> None:
    """Give each route of these blueprints a twin under the language prefix (``/move`` also as
    ``/<lang>/move``; a route that has a prefixed form of its own keeps it), and let ``url_for``
    fill in the language of the page being drawn for them. Call it once the blueprints are
    registered."""
    names = set(blueprints)
    taken = {rule.rule for rule in app.url_map.iter_rules()}
    prefixed: set[str] = set()
    for rule in list(app.url_map.iter_rules()):
        path = f"/{LANG_RULE}{rule.rule}"
        ours = rule.endpoint.partition(".")[0] in names
        if not ours or "lang" in rule.arguments or path in taken:
            continue
        app.add_url_rule(path, endpoint=rule.endpoint,
                         methods=sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}))
        prefixed.add(rule.endpoint)

    @app.url_value_preprocessor
    def drop_language(endpoint: str | None, values: dict | None) -> None:
        """The locale selector has read the prefix; the views take no ``lang``."""
        if endpoint in prefixed and values:
            values.pop("lang", None)

    @app.url_defaults
    def add_language(endpoint: str, values: dict) -> None:
        """A URL built while drawing a page names the page's language."""
        if endpoint in prefixed and "lang" not in values and has_request_context():
            values["lang"] = current_language()


def init_i18n(app: Flask) -> None:
    """Set up Flask-Babel with the project's catalogs; templates get the language helpers and
    translate through the request's catalog."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS_DIR))
    Babel(app, locale_selector=select_locale)
    app.extensions[CATALOGS] = {}
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext,
                                 ngettext=template_ngettext, current_language=current_language,
                                 languages=LANGUAGES)
    app.jinja_env.filters["countwords"] = count_in_words
    app.jinja_env.filters["numberformat"] = number_text  # in place of Flask-Babel's
