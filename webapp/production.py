"""The production app, as gunicorn loads it: ``webapp.production:create_production_app()``.

Stricter than development: SECRET_KEY must come from the environment and be strong (no secret
generated into the instance folder), cookies are Secure unless SESSION_COOKIE_SECURE=0, and the
session store settings are checked before the first request.

    PROXY_HOPS  how many reverse proxies stand in front (default 0); with 1, the client's address
                and scheme come from the proxy's X-Forwarded-For / X-Forwarded-Proto headers
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from webapp.config import ConfigError, check_store, count, flag, settings_from

MIN_SECRET_LENGTH = 32
MIN_DISTINCT_CHARACTERS = 12
SECRET_HELP = 'generate one with: python -c "import secrets; print(secrets.token_hex(32))"'


def check_secret(secret: str | None) -> str:
    """The secret if it is strong enough; ConfigError saying what is wrong otherwise."""
    if not secret:
        raise ConfigError(f"SECRET_KEY is not set; {SECRET_HELP}")
    if len(secret) < MIN_SECRET_LENGTH or len(set(secret)) < MIN_DISTINCT_CHARACTERS:
        raise ConfigError(
            f"SECRET_KEY is too weak (needs {MIN_SECRET_LENGTH}+ characters, "
            f"{MIN_DISTINCT_CHARACTERS}+ of them different); {SECRET_HELP}"
        )
    return secret


def production_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """Settings for create_app from the environment; ConfigError if any is missing or unsafe."""
    settings = settings_from(environ)
    settings["SECRET_KEY"] = check_secret(environ.get("SECRET_KEY"))
    settings["SESSION_COOKIE_SECURE"] = flag(environ, "SESSION_COOKIE_SECURE", True)
    settings["PROXY_HOPS"] = count(environ, "PROXY_HOPS", 0)
    check_store(settings)
    return settings


def create_production_app() -> Flask:
    """The app configured from os.environ, refusing to start when the configuration is unsafe."""
    from webapp import create_app

    return create_app(production_settings(os.environ))
