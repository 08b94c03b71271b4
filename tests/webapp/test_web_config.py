"""Configuration: the generated development secret, and environment overrides."""

import pytest
from limits import parse_many

from webapp import create_app
from webapp.config import SECRET_FILE_NAME, settings_from
from webapp.traffic.budgets import scaled


@pytest.fixture
def app_without_secret(tmp_path):
    """Build an app on tmp_path the way `make run` does, with no secret configured."""
    return lambda: create_app({"INSTANCE_PATH": str(tmp_path), "SOLVER_WARM_UP": False})


def test_a_secret_is_generated_once_and_kept_in_the_instance_folder(tmp_path, app_without_secret,
                                                                    monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first, again = app_without_secret(), app_without_secret()
    assert len(first.secret_key) == 64
    assert again.secret_key == first.secret_key
    assert (tmp_path / SECRET_FILE_NAME).read_text() == first.secret_key


def test_environment_sets_the_secret_and_the_session_lifetime(tmp_path, app_without_secret,
                                                              monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("SESSION_LIFETIME_DAYS", "7")
    app = app_without_secret()
    assert app.secret_key == "from-the-environment"
    assert app.permanent_session_lifetime.days == 7
    assert not (tmp_path / SECRET_FILE_NAME).exists()


HELD_KEY_PER_SECOND = 30  # a key held down repeats about this fast...
HELD_KEY_SECONDS = 20  # ...for as long as anyone holds a key in this game
AUTO_PLAY_PER_SECOND = 10  # auto-play's top speed: a hint and a move ten times a second
CLASS = 20  # players behind one address (a school, a carrier's NAT)...
PERSON_PER_SECOND = 2  # ...each at a steady pace of a person playing
FLOOD_PER_SECOND = 1000


def sustains(limit: str, per_second: float, seconds: float = float("inf")) -> bool:
    """Whether requests at `per_second` for `seconds` (for ever, by default) stay within every
    window of `limit` (a window longer than `seconds` sees only those)."""
    return all(item.amount >= per_second * min(seconds, item.get_expiry())
               for item in parse_many(limit))


def test_the_default_budgets_let_a_held_key_auto_play_and_a_class_through_but_not_a_flood():
    defaults = settings_from({})
    per_address = {name: scaled(defaults[name], defaults["ADDRESS_BUDGET_SESSIONS"])
                   for name in ("MOVE_RATE_LIMIT", "SOLVER_RATE_LIMIT")}
    assert sustains(defaults["MOVE_RATE_LIMIT"], HELD_KEY_PER_SECOND, HELD_KEY_SECONDS)
    for budget in ("MOVE_RATE_LIMIT", "SOLVER_RATE_LIMIT"):
        assert sustains(defaults[budget], AUTO_PLAY_PER_SECOND)
        assert not sustains(defaults[budget], FLOOD_PER_SECOND)
    moves = per_address["MOVE_RATE_LIMIT"]
    assert sustains(moves, CLASS * PERSON_PER_SECOND)
    assert not sustains(moves, 2 * CLASS * PERSON_PER_SECOND)  # one address: a class's share


def test_an_address_budget_is_the_sessions_times_the_multiple_in_every_window():
    assert scaled("60/second;3000/minute;20 per 2 hours", 3) == (
        "180/1 second;9000/1 minute;60/2 hour")
