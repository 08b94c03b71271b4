"""How the templates are compiled and rendered, for the least work per answer.

Why this exists: rendering is the largest part of a move's answer (about a third of the
project's work per move), and two of Jinja's general mechanisms cost most of it for this app's
fragments. What changes is how the answers are computed, not what they say: tests/rendering
draws the move's fragment both ways, and bench/render_diff.py compares whole runs of answers.
It leans on Jinja's internals: `webapp.overrides` lists them, with the version they were
written against.

An include of a fixed name is compiled into the template that includes it, as if its text stood
there in a ``{% with %}`` block of its own. A real include renders the partial in a new context,
a copy of the including one: the move's fragment includes seven partials, and making their
contexts took a third of its rendering. The output is the same (each partial is still read with
its own whitespace rules). Includes stay real where templates reload when edited (a debug
server: an edited partial shows at once), and where the partial defines blocks or escapes
differently. Errors in an inlined partial are reported against the template that includes it.

A template's globals are a plain dict, the app's globals as they were when it loaded: Jinja's
own are a ChainMap over the app's, which each render copies key by key in Python (a fifth of
the move's fragment). Jinja asks for globals not to change once templates load; the app's are
all set while it is built.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any

from flask import Flask
from flask.templating import Environment
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

#: Tags a partial cannot be inlined with: its blocks would become the including template's.
_NOT_INLINED = ("name:extends", "name:block")


class InlineIncludes(Extension):
    """Compile ``{% include "name" %}`` (a constant name, nothing after it) in place."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        """The template's tokens, each plain include replaced by the partial's own tokens."""
        if self.environment.auto_reload:
            return stream
        return self._with_partials(list(stream), (stream.name,))

    def _with_partials(self, tokens: list[Token], within: tuple[str | None, ...]
                       ) -> Iterator[Token]:
        """`tokens` of the last template of `within` (the templates being inlined, outermost
        first), the includes it can inline replaced."""
        index = 0
        while index < len(tokens):
            partial = self._partial(tokens[index:index + 4], within)
            if partial is None:
                yield tokens[index]
                index += 1
            else:
                yield from partial
                index += 4

    def _partial(self, tag: list[Token], within: tuple[str | None, ...]) -> list[Token] | None:
        """The tokens standing for `tag` if it is a plain include that can be inlined (not of
        a template being inlined already: a partial may include itself)."""
        if [token.type for token in tag] != ["block_begin", "name", "string", "block_end"] \
                or tag[1].value != "include":
            return None
        environment, parent = self.environment, within[-1]
        name = environment.join_path(tag[2].value, parent or "")
        select_escaping = environment.autoescape
        if name in within or (callable(select_escaping)
                              and select_escaping(name) != select_escaping(parent)):
            return None
        source, filename, _uptodate = environment.loader.get_source(environment, name)
        lexed = environment.lexer.tokenize(environment.preprocess(source, name, filename), name,
                                           filename)
        partial = list(self._with_partials(list(lexed), (*within, name)))
        if any(first.type == "block_begin" and second.test_any(*_NOT_INLINED)
               for first, second in zip(partial, partial[1:])):
            return None
        begin, _include, _name, end = tag
        return [begin, Token(begin.lineno, "name", "with"), end, *partial,
                begin, Token(end.lineno, "name", "endwith"), end]


class TemplateEnvironment(Environment):
    """Flask's environment, each template's globals a plain dict."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """The app's globals, overlaid with the template's own `d`."""
        return {**self.globals, **(d or {})}


def init_templating(app: Flask) -> None:
    """Render the app's templates as the module says; before anything uses ``app.jinja_env``,
    which is made from these settings when first used."""
    if "jinja_env" in vars(app):
        raise RuntimeError("init_templating must come before anything uses app.jinja_env")
    app.jinja_environment = TemplateEnvironment
    app.jinja_options = {**app.jinja_options,
                         "extensions": [*app.jinja_options.get("extensions", ()), InlineIncludes]}
