"""Every link between the project's Markdown documents leads somewhere: the file exists, and a
``#fragment`` names a heading of that file (as GitHub makes a heading's anchor)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted([*ROOT.glob("*.md"), *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of every heading in `path` (a repeated heading gets -1, -2, ...)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = anchor(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[str]:
    """The targets of the links in `path` that stay inside the repository."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [target for target in LINK.findall(text)
            if not re.match(r"[a-z][a-z0-9+.-]*:", target)]


def test_there_are_documents_with_links() -> None:
    assert ROOT / "README.md" in DOCUMENTS
    assert sum(len(links(path)) for path in DOCUMENTS) > 20


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_leads_to_a_file_and_a_heading(path: Path) -> None:
    broken = []
    for target in links(path):
        file, _, fragment = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif fragment and (linked.suffix != ".md" or fragment not in anchors(linked)):
            broken.append(f"{target}: no such heading")
    assert broken == []


def test_anchor_follows_github() -> None:
    assert anchor("Where a move's CPU goes beyond the yardstick's (`move_parts.py`)") == (
        "where-a-moves-cpu-goes-beyond-the-yardsticks-move_partspy")
    assert anchor("3. The WSGI stack") == "3-the-wsgi-stack"
