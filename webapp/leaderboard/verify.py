"""Which games may enter the records table. A game enters only when the server, replaying its
stored history from its seed, ends exactly at the stored board and score: the history must
start where a new game of its seed starts (a daily game: from its day's opening), every move
must be legal and every checkpoint reached, and the last move must land on the stored position
(`Game.sound_part`). A game played
with help (a hint, auto-play, an undo) is refused, and so is a daily game finished after its
day was over, when anyone could have watched the day's tiles in other players' replays.

A repaired game (its stored history was found damaged and it went back to its last sound
point) is refused too, saying so, not that help was used: what remains of its history
replays, but its player had already seen the tiles that the moves after that point bring (a
tile follows from the game's seed and its number, as after an undo), so the rest of the game
cannot be told from play that knew what was coming."""

from __future__ import annotations

from werkzeug.exceptions import Conflict, Forbidden, HTTPException, UnprocessableEntity

from engine import Game, Status
from webapp import days
from webapp.i18n import translate as _
from webapp.store.game_record import GameRecord


def refusal(record: GameRecord) -> HTTPException | None:
    """Why `record` may not enter the table (an HTTP error whose description the player
    reads), or None when it may."""
    refused = play_refusal(record)
    if refused is not None:
        return refused
    if not proved(record):
        return UnprocessableEntity(_("This game's saved record does not replay to its score, "
                                     "so it cannot enter the records."))
    day = days.day_of(record)
    if day is not None and record.last_played >= days.day_end(day):
        return Conflict(_("This daily game ended after its day was over, so it cannot enter "
                          "the records."))
    return None


def play_refusal(record: GameRecord) -> HTTPException | None:
    """Why the play itself keeps `record` out of the table (not finished, played with help, or
    repaired), or None: the part of `refusal` a game's own answer can tell without replaying
    it."""
    if record.game.status != Status.OVER:
        return Conflict(_("Only a finished game can enter the records."))
    if record.played_alone:
        return None
    if record.assisted:
        return Forbidden(_("This game was played with help (a hint, auto-play or an undo), so "
                           "it cannot enter the records."))
    return Forbidden(_("This game's saved record was damaged and repaired: it went back to "
                       "an earlier move, after which you had already seen the tiles to come, so "
                       "it cannot enter the records."))


def proved(record: GameRecord) -> bool:
    """Whether the history starts where a new game of its seed starts (from its day's opening,
    for a daily game) and, replayed from there, ends at the stored board and score."""
    game = record.game
    day = days.day_of(record)
    opening = None if day is None else days.opening_seed(day)
    if game.history.start != Game.new(game.seed, opening=opening).position:
        return False
    return game.sound_part().moves == game.moves
