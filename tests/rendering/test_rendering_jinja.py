"""How templates compile and render (webapp.rendering.jinja): an include of a fixed name is compiled
in place and draws the same as a real one; a template's globals are a plain dict."""

import pytest
from jinja2 import ChoiceLoader, DictLoader

from engine import Game
from webapp.game import rendering
from webapp.store.game_record import GameRecord

#: Partials that must stay real includes (one includes itself, one defines a block), and one
#: whose variables must not leak into the template including it.
PARTIALS = {
    "t/tree.html": "{% for child in node.children %}[{{ child.name }}"
                   "{% with node=child %}{% include 't/tree.html' %}{% endwith %}]{% endfor %}",
    "t/block.html": "{% block part %}block{% endblock %}",
    "t/sets.html": "{%- set shown = 'inner' %}{{ shown }}|",
    "t/page.html": "{% set shown = 'outer' %}{% include 't/tree.html' %} "
                   "{% include 't/block.html' %} {% include 't/sets.html' %}{{ shown }}",
}
TREE = {"children": [{"name": "a", "children": [{"name": "b", "children": []}]}]}


def rendered(app, name: str, **context: object) -> str:
    app.jinja_env.loader = ChoiceLoader([DictLoader(PARTIALS), app.jinja_env.loader])
    with app.test_request_context("/en/"):
        return app.jinja_env.get_template(name).render(**context)


@pytest.fixture
def reloading_app(make_web_app, tmp_path):
    """An app whose templates reload when edited: its includes stay real."""
    return make_web_app(tmp_path / "reloading", TEMPLATES_AUTO_RELOAD=True)


def test_an_inlined_include_draws_what_a_real_one_draws(app, reloading_app):
    assert rendered(app, "t/page.html", node=TREE) == "[a[b]] block inner|outer"
    assert rendered(reloading_app, "t/page.html", node=TREE) == "[a[b]] block inner|outer"


def test_the_move_fragment_is_one_template_and_draws_as_with_real_includes(app, reloading_app):
    record = GameRecord("g" * 22, Game.new(seed=3))
    record.game.move(record.game.legal_moves()[0])
    fragments = []
    for each in (app, reloading_app):
        with each.test_request_context("/pl/move"):
            fragments.append(rendering.render_update(record, "moved", "left", 4)[0])
    assert fragments[0] == fragments[1] and 'id="board"' in fragments[0]
    source, filename, _ = app.jinja_env.loader.get_source(app.jinja_env, "partials/update.html")
    compiled = app.jinja_env.compile(source, "partials/update.html", filename, raw=True)
    assert "get_template" not in compiled


def test_a_template_s_globals_are_a_plain_dict_of_the_app_s(app):
    template = app.jinja_env.get_template("partials/message.html")
    assert type(template.globals) is dict and template.globals["url_for"] == app.url_for
