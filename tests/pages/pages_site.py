"""What the page tests cover: the languages, the pages, the fixture data."""

from pathlib import Path

DATA = Path(__file__).parent / "data"
STRENGTH_FIXTURE = DATA / "solver_strength.json"
LANGUAGES = ("en", "pl", "ja")
PAGES = ("rules", "strategy", "solver")
