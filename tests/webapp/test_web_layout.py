"""The web layer's parts import one another in one direction: a wing (a package of webapp) or a
top-level module never reaches, through the others, back to itself, and the store is under
everything. Imports are read from the source (module- and function-level), not run."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import webapp

WEBAPP = Path(webapp.__file__).parent


def part_of(module: str) -> str | None:
    """The part of webapp a module is in (a package's name, or a top-level module's), None
    outside webapp or for webapp itself, which puts the parts together."""
    names = module.split(".")
    return names[1] if names[0] == "webapp" and len(names) > 1 else None


def imported(path: Path) -> Iterator[str]:
    """Every module a file imports (a ``from webapp import days`` names ``webapp.days``)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            if node.module == "webapp":
                yield from (f"webapp.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    """Each part of webapp -> the other parts it imports."""
    graph: dict[str, set[str]] = {}
    for path in WEBAPP.rglob("*.py"):
        source = part_of(".".join(("webapp", *path.relative_to(WEBAPP).with_suffix("").parts)))
        if source in (None, "__init__"):
            continue
        targets = {part_of(module) for module in imported(path)} - {None, source}
        graph.setdefault(source, set()).update(target for target in targets
                                               if (WEBAPP / target).is_dir()
                                               or (WEBAPP / f"{target}.py").exists())
    return graph


def reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every part `start` imports, directly or through others."""
    seen: set[str] = set()
    waiting = list(graph.get(start, ()))
    while waiting:
        part = waiting.pop()
        if part not in seen:
            seen.add(part)
            waiting.extend(graph.get(part, ()))
    return seen


def test_no_part_of_the_web_layer_imports_itself_through_another():
    graph = import_graph()
    assert {"game", "leaderboard", "daily", "store"} <= set(graph)  # the scan found the parts
    cycles = sorted(part for part in graph if part in reaches(graph, part))
    assert not cycles, {part: sorted(graph[part]) for part in cycles}


def test_the_store_imports_nothing_of_the_web_layer_but_its_settings():
    assert import_graph()["store"] == {"config"}
