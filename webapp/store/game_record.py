"""A game as the store keeps it: the engine's game with its whole history, plus what the web
adds (the last move number applied, whether the solver helped, when it was played).

Stores keep a record as flat fields (`to_fields`, `from_fields`): a few values to list and evict
games by, the day of a daily game, and one JSON text, the game (`Game.to_saved`: its history,
with the position to resume from as the history's end). A list of games reads only the listing
fields (`GameSummary`), never the game. Records written before the game was one text kept it as
two, the position and the history; they still read (`LEGACY_FIELDS`), and are written back as
one. Records written before daily games were marked have no ``day``, those written before
repairs were marked no ``repaired`` (`ADDED_FIELDS`).
"""

from __future__ import annotations

import json
import math
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from engine import Game, legacy

#: 16 random bytes: an id nobody can guess, written in 22 URL-safe characters.
GAME_ID_BYTES = 16
GAME_ID = re.compile(r"[A-Za-z0-9_-]{22}")

#: Every field a stored record has, with its type (what `from_fields` accepts).
FIELD_TYPES: dict[str, type] = {
    "id": str,
    "version": int,
    "seq": int,
    "played": bool,
    "assisted": bool,
    "repaired": bool,
    "created": float,
    "last_played": float,
    "score": int,
    "best_tile": int,
    "moves": int,
    "status": str,
    "day": str,
    "game": str,
}
#: Fields added since the first records were written, with the value an older record has.
ADDED_FIELDS: dict[str, object] = {"day": "", "repaired": False}
#: The two texts a game was kept as before it was one (``{"position": ..., "history": ...}``
#: in SQLite's ``game`` column since its migration).
LEGACY_FIELDS = ("position", "history")


#: The fields a list of games shows, and what a store needs to tell whether the game has expired.
SUMMARY_FIELDS = ("id", "score", "best_tile", "moves", "status", "assisted", "played", "created",
                  "last_played", "day")


def new_game_id() -> str:
    """A fresh, unguessable game id."""
    return secrets.token_urlsafe(GAME_ID_BYTES)


def is_game_id(value: object) -> bool:
    """True for a string shaped like a game id (it may still name no game)."""
    return isinstance(value, str) and GAME_ID.fullmatch(value) is not None


@dataclass
class GameRecord:
    """One game and its bookkeeping. `version` counts the writes: a write names the version it
    read and fails if another request wrote in between (optimistic concurrency)."""

    id: str
    game: Game
    seq: int = 0  # the last move number applied; each game numbers its own moves from 1
    assisted: bool = False  # the player used help (a hint, auto-play, an undo)
    #: Its stored history was found damaged and the game went back to the last sound point
    #: (`webapp.game.play`): a repair, not help, but its player had seen tiles still to come.
    repaired: bool = False
    day: date | None = None  # the day of a daily game, None for an ordinary one
    played: bool = False  # a move has been made; unplayed games live briefly and go first
    created: float = field(default_factory=time.time)
    last_played: float = 0.0  # when a move was last made (the creation time until then)
    version: int = 0
    stored_played: bool = field(default=False, compare=False)  # `played` as the store has it

    def __post_init__(self) -> None:
        self.last_played = self.last_played or self.created

    @property
    def played_alone(self) -> bool:
        """Whether its play may stand in the records: no help and no repair (finished or
        not; `webapp.leaderboard.verify` says which keeps it out)."""
        return not (self.assisted or self.repaired)

    @classmethod
    def start(cls, game: Game | None = None, *, opening: int | None = None) -> GameRecord:
        """A record for a new game: `game`, or a fresh random one (whose first two tiles follow
        `opening` when given, see `Game.new`)."""
        return cls(new_game_id(), game or Game.new(opening=opening))

    def summary(self) -> GameSummary:
        """What a list of games shows of this one."""
        game = self.game
        return GameSummary(
            id=self.id,
            score=game.score,
            best_tile=game.best_tile,
            moves=game.moves,
            status=str(game.status),
            assisted=self.assisted,
            played=self.played,
            created=self.created,
            last_played=self.last_played,
            day=self.day.isoformat() if self.day else "",
        )

    def to_fields(self) -> dict[str, Any]:
        """The record as flat values of FIELD_TYPES' types."""
        return {
            **vars(self.summary()),
            "version": self.version,
            "seq": self.seq,
            "repaired": self.repaired,
            "game": json.dumps(self.game.to_saved(), separators=(",", ":")),
        }

    @classmethod
    def from_fields(cls, fields: Mapping[str, object]) -> GameRecord:
        """Read a record back; ValueError for anything but what `to_fields` writes."""
        if "game" not in fields and all(name in fields for name in LEGACY_FIELDS):
            fields = {**fields, "game": "{%s}" % ",".join(
                f'"{name}":{_typed(fields, name, str)}' for name in LEGACY_FIELDS)}
        fields = {**ADDED_FIELDS, **fields}
        values = {name: _typed(fields, name, kind) for name, kind in FIELD_TYPES.items()}
        if not is_game_id(values["id"]):
            raise ValueError("not a game id")
        if values["version"] < 0 or values["seq"] < 0:
            raise ValueError("version and seq are not negative")
        try:
            day = date.fromisoformat(values["day"]) if values["day"] else None
            if day and len(values["day"]) != len("YYYY-MM-DD"):
                raise ValueError
        except ValueError:
            raise ValueError("day is not a date") from None
        try:
            saved = json.loads(values["game"])
        except json.JSONDecodeError as error:
            raise ValueError(f"the game is not JSON: {error}") from None
        return cls(
            id=values["id"],
            game=_game(saved),
            seq=values["seq"],
            assisted=values["assisted"],
            repaired=values["repaired"],
            day=day,
            played=values["played"],
            created=values["created"],
            last_played=values["last_played"],
            version=values["version"],
            stored_played=values["played"],
        )


def _game(saved: object) -> Game:
    """The game of a record's ``game`` text, in either form it was written in."""
    if isinstance(saved, dict) and saved.keys() == set(LEGACY_FIELDS):
        return legacy.read_game(saved["position"], saved["history"])
    return Game.from_saved(saved)


@dataclass(frozen=True)
class GameSummary:
    """What a list of games shows of one game (`SUMMARY_FIELDS`)."""

    id: str
    score: int
    best_tile: int
    moves: int
    status: str
    assisted: bool
    played: bool
    created: float
    last_played: float
    #: A daily game's day (YYYY-MM-DD), "" for an ordinary game.
    day: str

    @classmethod
    def from_fields(cls, fields: Mapping[str, object]) -> GameSummary:
        """Read the listing fields back; ValueError for anything but what `to_fields` writes."""
        fields = {**ADDED_FIELDS, **fields}
        values = {name: _typed(fields, name, FIELD_TYPES[name]) for name in SUMMARY_FIELDS}
        if not is_game_id(values["id"]):
            raise ValueError("not a game id")
        return cls(**values)


def _typed(fields: Mapping[str, object], name: str, kind: type) -> Any:
    """fields[name] as a `kind`, from the value itself or from how a store writes it: SQLite
    writes a bool as 0 or 1, Redis writes every field as bytes. Anything else is a ValueError."""
    if name not in fields:
        raise ValueError(f"the record has no {name}")
    value = fields[name]
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{name} is not UTF-8") from None
        if kind is not str:
            value = _number(value, name)
    if kind is bool and type(value) is int and value in (0, 1):
        return bool(value)
    if kind is float and type(value) is int:
        value = float(value)
    if type(value) is not kind or (kind is float and not math.isfinite(value)):
        raise ValueError(f"{name} must be a {kind.__name__}, not {type(value).__name__}")
    return value


def _number(text: str, name: str) -> int | float:
    """An int or float written as text (as Redis keeps it)."""
    if re.fullmatch(r"-?[0-9]{1,20}", text):
        return int(text)
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{name} is not a number") from None
