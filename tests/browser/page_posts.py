"""Recording what the page's script sends, as it sends it: an init script wraps fetch (each call
still goes out unchanged) and keeps "path body" for every request, in order. Being written in
the page before the request leaves, the record needs no waiting to be complete."""

from urllib.parse import parse_qsl

from playwright.sync_api import Page

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


def posts_sent(page: Page) -> list[str]:
    """Every request sent so far, as "path body" (e.g. "/en/move direction=up&seq=3")."""
    return page.evaluate("window.posts")


def named_move(body: str) -> str:
    """What a move request's body asks for, without the game it names: "direction=up&seq=3",
    "direction=up&direction=left&seq=4" for two moves."""
    form = parse_qsl(body)
    named = [f"{name}={value}" for name, value in form if name == "direction"]
    return "&".join([*named, *(f"seq={value}" for name, value in form if name == "seq")])


def moves_sent(page: Page) -> list[str]:
    """Every move request sent so far, in order, as named_move gives it."""
    return [named_move(body) for path, _, body in (post.partition(" ") for post in posts_sent(page))
            if path.endswith("/move")]
