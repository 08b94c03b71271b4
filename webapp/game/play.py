"""What each intent does to a game record, as functions `current.change` applies (and applies
again after a conflicting write): each answers (what happened, whether the record changed).

A record whose history no longer replays to its game (stored bits changed) is damaged, not
fatal: when undo meets the damage, or a move ends the game and its whole history is replayed to
prove its score, the game goes back to the last point of its history that checks out
(`Game.sound_part`), is marked repaired, and the answer is "repaired". A repair is not help:
only the undo that met the damage makes the game assisted, as any undo does.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine import DamagedHistory, Game, Status, Tile
from webapp.store.game_record import GameRecord

Apply = Callable[[GameRecord], tuple[str, bool]]

log = logging.getLogger(__name__)


def _numbered(seq: int, act: Callable[[GameRecord], str], retry: bool = False) -> Apply:
    """An intent numbered like a move: applied (its number used up whatever `act` answers) only
    when `seq` is the next number. A number already used is "stale" on a first try (the game
    moved on elsewhere: another tab, an earlier page), refused so that the player's press is
    not played on a board they never saw, and "repeated" on a `retry` (its first try landed);
    a number past the next (a confused page) is "repeated". Neither changes anything, and both
    answer the server's count."""
    def apply(record: GameRecord) -> tuple[str, bool]:
        if seq != record.seq + 1:
            return ("stale" if seq <= record.seq and not retry else "repeated"), False
        record.seq = seq
        return act(record), True
    return apply


def move(direction: str, seq: int, retry: bool = False) -> Apply:
    """Play `direction` as move number `seq`: "moved" or "blocked" (an illegal direction still
    uses up its number); see `_numbered` for a number that is not the next."""
    def act(record: GameRecord) -> str:
        if not record.game.move(direction):
            return "blocked"
        record.played, record.last_played = True, time.time()
        if record.game.over and (sound := record.game.sound_part()).moves < record.game.moves:
            return _repair(record, sound, "its history does not lead to its final score")
        return "moved"
    return _numbered(seq, act, retry)


def solver_move(direction: str, seq: int) -> Apply:
    """Play the solver's choice `direction` as move number `seq` (auto-play), like `move`; a
    game the solver plays in is assisted."""
    play = move(direction, seq)

    def apply(record: GameRecord) -> tuple[str, bool]:
        event, changed = play(record)
        if changed:
            record.assisted = True
        return event, changed
    return apply


class Step(NamedTuple):
    """One move of a request of several, as the page draws it: its direction and the tiles it
    left (each with where it came from, `engine.Tile`)."""

    direction: str
    tiles: tuple[Tile, ...]


@dataclass(frozen=True)
class Played:
    """What a request's moves did, for the answer: its event ("stale" if its first number was
    used before a first try, else a repair if one was needed, else "moved" if any move moved,
    else "blocked" if any was played, else "repeated"), the direction of the last move with that
    event, the points the moves scored together, and for a request of several moves each move
    that moved (`steps`)."""

    event: str
    direction: str
    points: int
    steps: tuple[Step, ...] = ()


#: A request's events, the one its answer names first.
_NAMED_FIRST = ("stale", "repaired", "moved", "blocked", "repeated")


def moves(directions: Sequence[str], first_seq: int,
          retry: bool = False) -> Callable[[GameRecord], tuple[Played, bool]]:
    """Play `directions` in order as moves numbered from `first_seq`, each exactly as `move`
    plays one: on a `retry` a number already used is skipped (the first moves of a request
    whose first try landed), an illegal direction uses up its number, and a number past the
    next is dropped. On a first try, a first number already used refuses the whole request
    ("stale"): the moves were pressed on a board the game has left."""
    def apply(record: GameRecord) -> tuple[Played, bool]:
        events, steps, points, changed = [], [], 0, False
        for seq, direction in enumerate(directions, first_seq):
            event, applied = move(direction, seq, retry)(record)
            if event == "stale":
                return Played(event, direction, 0), False
            events.append((event, direction))
            if event == "moved":
                points += record.game.last_points
                if len(directions) > 1:
                    steps.append(Step(direction, record.game.tiles))
            changed |= applied
        shown = min((event for event, _ in events), key=_NAMED_FIRST.index)
        direction = next(direction for event, direction in reversed(events) if event == shown)
        return Played(shown, direction, points, tuple(steps)), changed
    return apply


def undo(seq: int, retry: bool = False) -> Apply:
    """Take back the last move, numbered `seq` like a move: "undone", or "nothing-to-undo" at
    the start of the game. Taking a move back is help: the game becomes assisted."""
    def act(record: GameRecord) -> str:
        try:
            if not record.game.undo():
                return "nothing-to-undo"
        except DamagedHistory as error:
            record.assisted = True
            return _repair(record, record.game.sound_part(), str(error))
        record.assisted, record.last_played = True, time.time()
        return "undone"
    return _numbered(seq, act, retry)


def _repair(record: GameRecord, sound: Game, why: str) -> str:
    """Put the damaged game back to `sound`, the last point of its history that checks out,
    and mark it repaired: its player has seen tiles still to come, so it stays out of the
    records (`webapp.leaderboard.verify`)."""
    log.warning("game %s is damaged (%s): back from move %d to %d",
                record.id, why, record.game.moves, sound.moves)
    record.game, record.repaired, record.last_played = sound, True, time.time()
    return "repaired"


def keep_playing(record: GameRecord) -> tuple[str, bool]:
    """Close the win banner and go on with the same board."""
    if record.game.status != Status.WON:
        return "kept-playing", False
    record.game.keep_playing()
    return "kept-playing", True


def assisted(record: GameRecord) -> tuple[str, bool]:
    """The solver helped: the game no longer counts for the best score without help."""
    if record.assisted:
        return "hinted", False
    record.assisted = True
    return "hinted", True
