"""Recording what the page's script sends, as it sends it: an init script wraps fetch (each call
still goes out unchanged) and keeps "path body" for every request, in order. Being written in
the page before the request leaves, the record needs no waiting to be complete."""

import re

from playwright.sync_api import Page

GAME_FIELD = re.compile(r"\bgame=[^&]*&?")

RECORD_POSTS = """
window.posts = [];
const send = window.fetch;
window.fetch = (url, options = {}) => {
    window.posts.push(`${new URL(url, location.href).pathname} ${options.body || ""}`.trim());
    return send(url, options);
};
"""


def record_posts(page: Page) -> None:
    """Record every request the page sends from its next load on."""
    page.add_init_script(RECORD_POSTS)


def without_game(body: str) -> str:
    """A request's body without the id of the game it names (every request names one)."""
    return GAME_FIELD.sub("", body).rstrip("& ")


def posts_sent(page: Page) -> list[str]:
    """Every request sent so far, as "path body" without the game's id (e.g.
    "/move direction=up&seq=3")."""
    return [without_game(post) for post in page.evaluate("window.posts")]
