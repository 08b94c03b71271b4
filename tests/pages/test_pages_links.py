"""Every internal link, from the game and from every page in every language, resolves."""

from urllib.parse import urldefrag, urlsplit

from tests.pages.pages_html import parse
from tests.pages.pages_site import LANGUAGES, PAGES

LINK_ATTRIBUTES = {"a": "href", "link": "href", "script": "src", "img": "src", "source": "src"}


def _internal_links(html: str) -> list[str]:
    links = []
    for node in parse(html).iter():
        url = node.attrs.get(LINK_ATTRIBUTES.get(node.tag, ""))
        if url and not urlsplit(url).scheme and not url.startswith("//"):
            links.append(url)
    return links


def test_every_internal_link_resolves(client):
    start = ["/"] + [f"/{lang}/{page}" for lang in LANGUAGES for page in PAGES]
    pages: dict[str, str] = {}
    queue, seen, broken = list(start), set(start), []
    while queue:
        path = queue.pop()
        response = client.get(path, follow_redirects=True)
        if response.status_code != 200:
            broken.append((path, response.status_code))
            continue
        if path in start and response.mimetype == "text/html":
            pages[path] = response.text
            for link in _internal_links(response.text):
                target = urldefrag(link).url or path
                if target.startswith("/") and target not in seen:
                    seen.add(target)
                    queue.append(target)
    assert not broken
    assert len(seen) > len(start), "the crawl found links beyond its starting points"


def test_every_fragment_link_points_to_an_element(client):
    """Links such as /en/strategy#mistake-merges land on an element with that id."""
    ids: dict[str, set[str]] = {}

    def ids_of(path: str) -> set[str]:
        if path not in ids:
            root = parse(client.get(path).text)
            ids[path] = {node.attrs["id"] for node in root.iter() if node.attrs.get("id")}
        return ids[path]

    for lang in LANGUAGES:
        for page in PAGES:
            path = f"/{lang}/{page}"
            for link in _internal_links(client.get(path).text):
                target, fragment = urldefrag(link)
                if fragment:
                    assert fragment in ids_of(target or path), (path, link)
