"""Configuration: the generated development secret, and environment overrides."""

import pytest

from webapp import create_app
from webapp.config import SECRET_FILE_NAME


@pytest.fixture
def app_without_secret(tmp_path):
    """Build an app on tmp_path the way `python -m webapp` would, with no secret configured."""
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
