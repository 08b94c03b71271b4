"""What the page tests cover: the languages, the pages, the fixture data."""

from pathlib import Path

from webapp.i18n import LANGUAGES as LANGUAGE_NAMES

DATA = Path(__file__).parent / "data"
STRENGTH_FIXTURE = DATA / "solver_strength.json"
LANGUAGES = tuple(LANGUAGE_NAMES)
PAGES = ("rules", "strategy", "solver")
