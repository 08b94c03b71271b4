"""Long-form pages (rules, strategy, solver), one template per language."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template
from flask_babel import force_locale

LANGUAGES = ("en", "pl", "ja")
LANG_RULE = "<any(en, pl, ja):lang>"

pages = Blueprint("pages", __name__)
bp = pages


def _render(lang: str, page: str, **context: Any) -> str:
    """Render templates/pages/<lang>/<page>.html with the page's language as locale."""
    with force_locale(lang):
        return render_template(f"pages/{lang}/{page}.html", lang=lang, page=page, **context)


@pages.route(f"/{LANG_RULE}/rules")
def rules(lang: str) -> str:
    """The full rules, with drawn examples, controls and the tile ladder."""
    return _render(lang, "rules")


@pages.route(f"/{LANG_RULE}/strategy")
def strategy(lang: str) -> str:
    """Proven strategies, each with an example board."""
    return _render(lang, "strategy")


@pages.route(f"/{LANG_RULE}/solver")
def solver(lang: str) -> str:
    """How the built-in solver works, with its measured strength."""
    return _render(lang, "solver")
