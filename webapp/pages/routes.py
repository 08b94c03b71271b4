"""The routes of the long-form pages (rules, strategy, solver), one template per language.

The language comes from the URL; the app's locale selector reads the same ``lang`` view
argument, so short interface strings on these pages follow it too.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, render_template, url_for
from werkzeug.wrappers import Response

from engine.scoring import merge_points
from engine.solver import SETTINGS as SOLVER_SETTINGS
from webapp.game import controls
from webapp.i18n import LANG_RULE, board_label, current_language
from webapp.pages import board_examples
from webapp.pages.strength_chart import strength_chart
from webapp.pages.strength_report import load_strength_report, network_games
from webapp.pages.tile_ladder import tile_ladder

PAGES = ("rules", "strategy", "solver")

bp = Blueprint("pages", __name__)


def _render(lang: str, page: str, **context: Any) -> str:
    """Render templates/pages/<lang>/<page>.html; `board_label` speaks the example boards
    (templates/macros/board_example.html, imported with the page's context)."""
    return render_template(f"pages/{lang}/{page}.html", lang=lang, page=page,
                           board_label=board_label, **context)


@bp.route(f"/{LANG_RULE}/rules")
def rules(lang: str) -> str:
    """The full rules, with drawn examples, the controls and the tile ladder."""
    return _render(
        lang,
        "rules",
        examples=board_examples.RULES,
        controls=controls.reference_table(),
        ladder=tile_ladder(),
        points_of_2048=merge_points(2048),  # what the merges behind one 2048 score
    )


@bp.route(f"/{LANG_RULE}/strategy")
def strategy(lang: str) -> str:
    """Proven strategies and the four mistakes, each with an example board."""
    return _render(lang, "strategy", examples=board_examples.STRATEGY)


@bp.route(f"/{LANG_RULE}/solver")
def solver(lang: str) -> str:
    """How the built-in solver works, with its measured strength when a measurement exists."""
    report = load_strength_report()
    chart = strength_chart(report) if report else None
    return _render(
        lang, "solver", report=report, chart=chart, network_games=network_games(),
        solver_settings=tuple(SOLVER_SETTINGS.values()),
        hint_setting=current_app.config["SOLVER_SETTING"],  # what the hint and auto-play use
    )


@bp.get(f"/<any({', '.join(PAGES)}):page>")
def in_readers_language(page: str) -> Response:
    """A page asked for without a language: the same page in the reader's (their remembered
    choice, else their browser's)."""
    response = redirect(url_for(f"pages.{page}", lang=current_language()))
    response.vary.update(("Cookie", "Accept-Language"))
    return response
