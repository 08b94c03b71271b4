"""Where this app reaches into a library's internals, each place with the library version it was
written against: the list to re-check before upgrading one of them.

Each place trades a library's general mechanism for a faster or stricter one of the app's own
(its module says why), and leans on something the library does not promise to keep: an
underscore method, the shape of its internal state, the order in which it calls its own hooks.
A newer version may move or change any of these without notice, and the app would then break
quietly (an answer drawn differently, a session written twice) rather than loudly.

tests/webapp/test_web_overrides.py fails when the installed version of a library listed here,
or the version pyproject.toml pins, differs from the one written here, and names the places to
re-check. After an upgrade: re-check each place for that library, then write its new version
here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Override:
    """The `names` of module `module` rely on `relies_on`, an internal of `library` (its name
    as pip knows it) as it is in `version`."""

    library: str
    version: str
    module: str
    names: tuple[str, ...]
    relies_on: str


OVERRIDES: tuple[Override, ...] = (
    Override(
        "Jinja2", "3.1.6", "webapp.rendering.jinja", ("InlineIncludes",),
        "an extension's filter_stream rewriting the token stream: an include tag lexes to the "
        "tokens block_begin, name 'include', string, block_end; environment.lexer.tokenize "
        "and jinja2.lexer.Token; a {% with %} block scopes an inlined partial as a real "
        "include's new context does"),
    Override(
        "Jinja2", "3.1.6", "webapp.rendering.jinja", ("TemplateEnvironment",),
        "Environment.make_globals, which Jinja calls for each template's globals (its own "
        "returns a ChainMap that every render copies)"),
    Override(
        "Flask", "3.1.3", "webapp.rendering.jinja", ("init_templating",),
        "Flask.jinja_environment and jinja_options, read once when the cached property "
        "app.jinja_env is first used (found in vars(app) from then on)"),
    Override(
        "Flask-Babel", "4.0.0", "webapp.i18n", ("catalog",),
        "g._flask_babel.babel_locale, where Flask-Babel keeps the locale it chose for the "
        "request"),
    Override(
        "Jinja2", "3.1.6", "webapp.i18n", ("template_gettext", "template_ngettext"),
        "the i18n extension's newstyle gettext (which Flask-Babel installs): {% trans %} and "
        "_() call the gettext and ngettext globals, which give markup where the template "
        "escapes and always %-format their variables"),
    Override(
        "Flask-Session", "0.8.0", "webapp.store.sessions", ("StoreSessions",),
        "ServerSideSessionInterface's open_session and save_session calling the underscore "
        "hooks _retrieve_session_data and _upsert_session; _get_store_id, _generate_sid, "
        "_delete_session, sid_length and session_class"),
    Override(
        "Flask-Session", "0.8.0", "webapp.store.sqlite_sessions", ("SqliteSessions",),
        "the hooks _retrieve_session_data(store_id), _delete_session(store_id) and "
        "_upsert_session(session_lifetime, session, store_id); serializer.encode; ttl = True "
        "(no clean-up of its own)"),
    Override(
        "Flask-Session", "0.8.0", "webapp.store.redis_sessions", ("RedisSessions",),
        "the hooks _retrieve_session_data(store_id), _delete_session(store_id) and "
        "_upsert_session(session_lifetime, session, store_id); serializer.encode; ttl = True "
        "(Redis expires the keys)"),
    Override(
        "Flask-Session", "0.8.0", "tests.web_support", ("StoreView",),
        "(the tests) _retrieve_session_data and _get_store_id, to read a session as stored"),
    Override(
        "Flask", "3.1.3", "webapp.store.sessions", ("install_sessions",),
        "app.before_request_funcs[None], the list of the app's before-request hooks, to put "
        "one first of all"),
    Override(
        "Werkzeug", "3.1.9", "webapp.security", ("ChunkedBodyCap",),
        "how a request without Content-Length is read: wsgi.input_terminated marks a chunked "
        "body, which Werkzeug would cut at MAX_CONTENT_LENGTH without a 413"),
    Override(
        "limits", "5.8.0", "webapp.traffic.budgets", ("_draw", "scaled"),
        "RateLimitItem's GRANULARITY and multiples, and its ordering (sorted by GRANULARITY "
        "alone), which puts a budget's windows shortest first"),
    Override(
        "redis", "8.1.0", "webapp.store.redis_client", ("address", "sentinels_of"),
        "client.connection_pool.connection_kwargs (host, port, db or path), to name the server "
        "in logs; a Sentinel-managed client's pool, SentinelConnectionPool, with its "
        "sentinel_manager (the Sentinel, its .sentinels clients) and service_name"),
    Override(
        "redis", "8.1.0", "webapp.store.redis_startup", ("check_sentinels",),
        "Sentinel.sentinels, one client per Sentinel, and each one's "
        "connection_pool.connection_kwargs (host, port), to name the Sentinels that do not "
        "answer"),
    Override(
        "redis", "8.1.0", "webapp.store.redis_writes", ("Writes",),
        "a cluster node's own client, ClusterNode.redis_connection, to send a key's writes and "
        "the WAIT after them on one connection; RedisCluster.nodes_manager.initialize() to "
        "read the cluster's slots again after a MOVED answer; redis.commands.core.Script's sha "
        "and script"),
)
