"""Reading the board and the scores out of a page or a fragment, as the page's script sees them."""

from __future__ import annotations

import re

TILE_ELEMENT = re.compile(r'<div class="tile"([^>]*)>')
ATTRIBUTE = re.compile(r'data-([\w-]+)(?:="([^"]*)")?')
#: What groups a number's digits in the site's languages: a comma ("14,200" in English and
#: Japanese), a no-break space ("14 200" in Polish), a narrow no-break or a plain space.
GROUP_SEPARATOR = "[,\u00a0\u202f ]"
#: A whole number as a page writes it: grouped by threes, or not at all ("1420" in Polish).
WRITTEN_NUMBER = re.compile(rf"[0-9]{{1,3}}(?:{GROUP_SEPARATOR}?[0-9]{{3}})*")
SCORE_ELEMENT = re.compile(r'<span id="(score|best|moves|best-unassisted)"[^>]*>([^<]*)</span>')


def tiles_drawn(html: str) -> list[dict[str, str]]:
    """Every tile element, in order, as its data attributes (a bare flag reads as "")."""
    return [{name: value for name, value in ATTRIBUTE.findall(attributes)}
            for attributes in TILE_ELEMENT.findall(html)]


def shown_rows(html: str) -> tuple[tuple[int, ...], ...]:
    """The board a fragment or page shows (the tiles leaving a merge left out)."""
    rows = [[0] * 4 for _ in range(4)]
    for tile in tiles_drawn(html):
        if "leaving" not in tile:
            rows[int(tile["row"])][int(tile["col"])] = int(tile["value"])
    return tuple(tuple(row) for row in rows)


def shown_number(text: str) -> int:
    """A number as a page writes it ("14,200", "14 200", "1420"), read back; a ValueError for
    any other text."""
    written = text.strip()
    if not WRITTEN_NUMBER.fullmatch(written):
        raise ValueError(f"not a number as a page writes one: {text!r}")
    return int(re.sub(GROUP_SEPARATOR, "", written))


def number_pattern(number: int) -> re.Pattern[str]:
    """What a page may write for `number`: its digits grouped by threes as any of the site's
    languages groups them, or not at all (Playwright's ``to_have_text`` waits for a match)."""
    return re.compile(f"^{f'{GROUP_SEPARATOR}?'.join(f'{number:,}'.split(','))}$")


def score_texts(html: str) -> dict[str, str]:
    """The score, best, moves and best without help a page or fragment shows, as written, by
    element id (those it has)."""
    return dict(SCORE_ELEMENT.findall(html))


def shown_scores(html: str) -> dict[str, int]:
    """The numbers `score_texts` reads, read back as numbers."""
    return {element: shown_number(text) for element, text in score_texts(html).items()}
