import pytest

from engine import solver


@pytest.fixture(scope="session", autouse=True)
def warm_solver():
    """Build the tables and load the compiled search once for all solver tests."""
    solver.warm_up()
