"""The best scores the browser remembers (localStorage, mirrored in cookies for the first render).

Cookie values are never trusted into the page: anything but a plain, plausible integer counts as 0.
"""

from dataclasses import dataclass

from flask import Request

BEST_COOKIE = "best"
BEST_UNASSISTED_COOKIE = "best_unassisted"
#: The daily games' bests are kept apart: the daily page's Best is the best daily game's.
BEST_DAILY_COOKIE = "best_daily"
BEST_DAILY_UNASSISTED_COOKIE = "best_daily_unassisted"
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


def kept_keys(daily: bool) -> dict[str, str]:
    """The element showing each best (its id) -> the cookie and storage key it is kept under:
    the daily games' own keys on a daily game, the ordinary games' on any other."""
    if daily:
        return {"best": BEST_DAILY_COOKIE, "best-unassisted": BEST_DAILY_UNASSISTED_COOKIE}
    return {"best": BEST_COOKIE, "best-unassisted": BEST_UNASSISTED_COOKIE}


def best_scores(request: Request, score: int, assisted: bool, daily: bool = False) -> BestScores:
    """The remembered bests of the games of this kind (`daily` or ordinary), raised by the
    current game's score where it beats them."""
    keys = kept_keys(daily)
    best = max(parse_score(request.cookies.get(keys["best"])), score)
    unassisted = parse_score(request.cookies.get(keys["best-unassisted"]))
    if not assisted:
        unassisted = max(unassisted, score)
    return BestScores(best, unassisted)


def client_data(daily: bool = False) -> dict:
    """What the page's script needs to remember the bests: the element showing each (its id)
    and the cookie and storage key it is kept under, and the most digits a kept score has."""
    return {"kept": kept_keys(daily), "maxDigits": MAX_SCORE_DIGITS}
