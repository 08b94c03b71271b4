"""The best scores the browser remembers (localStorage, mirrored in cookies for the first render).

Cookie values are never trusted into the page: anything but a plain, plausible integer counts as 0.
"""

from dataclasses import dataclass

from flask import Request

BEST_COOKIE = "best"
BEST_UNASSISTED_COOKIE = "best_unassisted"
# Far above the highest score a 4x4 board allows (about 3.9 million).
MAX_PLAUSIBLE_SCORE = 10_000_000
MAX_SCORE_DIGITS = len(str(MAX_PLAUSIBLE_SCORE))  # the most digits a remembered score has


@dataclass(frozen=True)
class BestScores:
    """Best score overall, and best reached without the solver's help."""

    best: int
    unassisted: int


def parse_score(raw: str | None) -> int:
    """A cookie value as a score, or 0 when it is not a sane integer."""
    if not raw or not raw.isascii() or not raw.isdigit() or len(raw) > MAX_SCORE_DIGITS:
        return 0
    value = int(raw)
    return value if value <= MAX_PLAUSIBLE_SCORE else 0


def best_scores(request: Request, score: int, assisted: bool) -> BestScores:
    """The remembered bests, raised by the current game's score where it beats them."""
    best = max(parse_score(request.cookies.get(BEST_COOKIE)), score)
    unassisted = parse_score(request.cookies.get(BEST_UNASSISTED_COOKIE))
    if not assisted:
        unassisted = max(unassisted, score)
    return BestScores(best, unassisted)


def client_data() -> dict:
    """What the page's script needs to remember the bests: the element showing each (its id)
    and the cookie and storage key it is kept under, and the most digits a kept score has."""
    return {"kept": {"best": BEST_COOKIE, "best-unassisted": BEST_UNASSISTED_COOKIE},
            "maxDigits": MAX_SCORE_DIGITS}
