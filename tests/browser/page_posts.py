"""Recording what the page's script sends, as it sends it: an init script wraps fetch (each call
still goes out unchanged) and keeps "path body" for every request, in order. Being written in
the page before the request leaves, the record needs no waiting to be complete."""

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
    """Every request sent so far, as "path body" (e.g. "/move direction=up&seq=3")."""
    return page.evaluate("window.posts")
