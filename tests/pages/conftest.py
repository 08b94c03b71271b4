"""Page tests run on the web app's fixtures (tests/conftest.py), with the solver's measured
strength read from a fixture file instead of the benchmark's real output."""

import pytest

from tests.pages.pages_site import STRENGTH_FIXTURE


@pytest.fixture
def app(app):
    """The web app's test app, reading the solver's strength from the fixture file."""
    app.config["SOLVER_STRENGTH_FILE"] = str(STRENGTH_FIXTURE)
    return app
