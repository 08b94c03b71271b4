"""Tables stay tables to a screen reader on a phone: read from Chromium's own accessibility tree
(the one a screen reader is given, through CDP), the records table at 360 px, where each entry is
stacked as a block, and at a desktop width is a table of column headers, rows and cells; a cell
that shows its column's name as a caption on a phone is named by that column's header and its own
value only (not the caption again); Replay is a link in its entry's row. The reference tables of
the rules and solver pages, which scroll rather than stack, stay tables at 360 px too."""

from typing import NamedTuple

import pytest
from playwright.sync_api import Page

from tests.browser.test_browser_phone_fit import finished_and_entered

pytestmark = pytest.mark.browser

NAME = "Ann Lee"
PHONE, DESKTOP = 360, 1280
CELL_ROLES = {"cell", "gridcell", "columnheader", "rowheader"}


class Cell(NamedTuple):
    role: str
    name: str
    links: list[str]


class Table(NamedTuple):
    name: str
    rows: list[list[Cell]]


def exposed_tables(page: Page) -> list[Table]:
    """Every node Chromium exposes with the role table, each as its rows of cells (role, name,
    the names of the links inside), in the tree's order."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = {node["nodeId"]: node
                 for node in session.send("Accessibility.getFullAXTree")["nodes"]}
    finally:
        session.detach()

    def role(node: dict) -> str | None:
        return None if node.get("ignored") else node.get("role", {}).get("value")

    def name(node: dict) -> str:
        return node.get("name", {}).get("value", "")

    def below(node: dict, roles: set[str]):
        """The nearest descendants with one of `roles` (none of them inside another)."""
        for child in filter(None, map(nodes.get, node.get("childIds", []))):
            if role(child) in roles:
                yield child
            else:
                yield from below(child, roles)

    root = next(node for node in nodes.values() if role(node) == "RootWebArea")
    return [Table(name(table), [[Cell(role(cell), name(cell),
                                      [name(link) for link in below(cell, {"link"})])
                                 for cell in below(row, CELL_ROLES)]
                                for row in below(table, {"row"})])
            for table in below(root, {"table"})]


@pytest.fixture
def server(serve):
    """The game served with a move budget the posted moves never exhaust."""
    return serve(MOVE_RATE_LIMIT="100000/second")


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_records_table_is_a_table_of_headers_rows_and_cells(browser, server, width):
    context = browser.new_context(viewport={"width": width, "height": 740},
                                  service_workers="block")
    page = context.new_page()
    game_id = finished_and_entered(page, server, "/", NAME)
    for lang in ("en", "pl"):
        page.goto(f"{server.url}/{lang}/records")
        row = page.locator(f"#entry-{game_id}")
        stacked = row.evaluate("(row) => getComputedStyle(row).display") != "table-row"
        assert stacked == (width == PHONE), (width, lang)  # the layout this width is about
        (table,) = exposed_tables(page)
        headers, *entries = table.rows
        columns = [text.strip() for text in
                   page.locator(".records-table thead th").all_text_contents()]
        assert [(cell.role, cell.name) for cell in headers] == [
            ("columnheader", column) for column in columns], (width, lang)
        (entry,) = entries
        assert [cell.role for cell in entry] == ["cell", "rowheader"] + ["cell"] * 5, (width, lang)
        assert entry[1].name == NAME
        for header, cell, shown in zip(headers, entry, row.locator("> *").all()):
            label = shown.get_attribute("data-label")
            if label is None:
                continue
            caption = shown.evaluate("(cell) => getComputedStyle(cell, '::before').content")
            assert (label in caption) == stacked, (width, lang, caption)
            assert header.name == label, (width, lang)
            assert cell.name == shown.text_content().strip(), (width, lang, header.name)
        replay = row.get_by_role("link").get_attribute("aria-label")
        assert NAME in replay and entry[-1].links == [replay], (width, lang)
    context.close()


@pytest.mark.parametrize("path", ["/en/rules", "/en/solver"])
def test_the_reference_tables_stay_tables_on_a_phone(page: Page, server, path):
    page.set_viewport_size({"width": PHONE, "height": 740})
    page.goto(server.url + path)
    tables = exposed_tables(page)
    assert len(tables) == page.locator("table").count() > 0
    for table in tables:
        headers, *rows = table.rows
        assert table.name and rows, table
        assert {cell.role for cell in headers} == {"columnheader"}, table.name
        for row in rows:
            assert [cell.role for cell in row] == ["rowheader"] + ["cell"] * (len(headers) - 1), (
                table.name, row)
