"""Print the bytes a first visit downloads (HTML + CSS + JS, no web fonts; target < 60 KB)
and the size of a move's fragment (target < 4 KB), measured through Flask's test client.

    python bench/page_weight.py
"""

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webapp import create_app  # noqa: E402

ASSET = re.compile(r'<(?:link rel="stylesheet"|script type="module") (?:href|src)="([^"]+)"')
MODULE_IMPORT = re.compile(r'^import .* from "(\./[^"]+)";$', re.M)
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


def first_load(client) -> dict[str, int]:
    """Bytes of the page and of every stylesheet and script module it pulls in."""
    page = client.get("/")
    sizes = {"/": len(page.data)}
    pending = ASSET.findall(page.text)
    while pending:
        url = pending.pop()
        if url in sizes:
            continue
        body = client.get(url).data
        sizes[url] = len(body)
        if url.endswith(".js"):
            base = url.rsplit("/", 1)[0]
            pending += [f"{base}/{name[2:]}" for name in MODULE_IMPORT.findall(body.decode())]
    return sizes


def move_fragments(client, page_html: str, moves: int = 200) -> list[int]:
    """Bytes of the fragments answering a game's moves (the board fills up as it goes)."""
    token = CSRF_META.search(page_html).group(1)
    directions = ("left", "down", "right", "down")
    return [
        len(client.post("/move", data={"direction": directions[seq % 4], "seq": str(seq)},
                        headers={"X-CSRFToken": token}).data)
        for seq in range(1, moves + 1)
    ]


def main() -> None:
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"INSTANCE_PATH": instance, "SOLVER_WARM_UP": False})
        client = app.test_client()
        sizes = first_load(client)
        for url, size in sorted(sizes.items()):
            print(f"{size:>8,} B  {url}")
        total = sum(sizes.values())
        print(f"{total:>8,} B  first load total (HTML+CSS+JS), target < 60 KB")
        fragments = move_fragments(client, client.get("/").text)
        print(f"{fragments[0]:>8,} B  first move fragment, target < 4 KB")
        print(f"{max(fragments):>8,} B  largest of {len(fragments)} move fragments")


if __name__ == "__main__":
    main()
