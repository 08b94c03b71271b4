"""A minimal HTML tree for the page tests (standard library only)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


@dataclass
class Node:
    """One element: its tag, attributes, children and direct text."""

    tag: str
    attrs: dict[str, str | None]
    children: list[Node] = field(default_factory=list)
    parts: list[str | Node] = field(default_factory=list)

    def iter(self) -> Iterator[Node]:
        """This node and every descendant, in document order."""
        yield self
        for child in self.children:
            yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None,
                 where: Callable[[Node], bool] | None = None) -> list[Node]:
        """Descendants (and self) matching a tag, a class and a predicate."""
        return [
            node for node in self.iter()
            if (tag is None or node.tag == tag)
            and (cls is None or cls in (node.attrs.get("class") or "").split())
            and (where is None or where(node))
        ]

    def find(self, tag: str | None = None, cls: str | None = None) -> Node:
        """The first match; AssertionError when there is none."""
        found = self.find_all(tag, cls)
        assert found, f"no <{tag}> with class {cls!r}"
        return found[0]

    @property
    def text(self) -> str:
        """All text inside, whitespace collapsed."""
        pieces = [part if isinstance(part, str) else part.text for part in self.parts]
        return " ".join("".join(pieces).split())


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        self.stack[-1].parts.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        self.stack[-1].parts.append(node)

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1].parts.append(data)


def parse(html: str) -> Node:
    """The document's root node."""
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root
