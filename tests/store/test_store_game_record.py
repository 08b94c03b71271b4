"""A game record's stored form: it reads back exactly, and anything else is refused."""

from __future__ import annotations

import json
from datetime import date

import pytest

from engine import Game
from tests.store.store_support import old_fields
from webapp.store.game_record import ADDED_FIELDS, FIELD_TYPES, GameRecord, is_game_id, new_game_id


def played_record() -> GameRecord:
    game = Game.new(seed=5)
    for direction in ("left", "up", "right", "down", "left"):
        game.move(direction)
    return GameRecord(new_game_id(), game, seq=7, assisted=True, played=True,
                      created=1000.5, last_played=2000.25, version=3)


def test_a_record_reads_back_from_its_fields_and_from_text_as_redis_keeps_it():
    record = played_record()
    fields = record.to_fields()
    assert set(fields) == set(FIELD_TYPES)
    as_text = {name: (("1" if value else "0") if isinstance(value, bool) else
                      repr(value) if isinstance(value, float) else str(value)).encode()
               for name, value in fields.items()}
    for stored in (fields, as_text):
        back = GameRecord.from_fields(stored)
        assert back.to_fields() == fields
        assert back.game.position == record.game.position
        assert len(back.game.history) == 5


def test_the_listing_fields_describe_the_game():
    fields = played_record().to_fields()
    game = played_record().game
    assert (fields["score"], fields["moves"], fields["status"]) == (game.score, 5, "playing")
    assert fields["best_tile"] == max(max(row) for row in game.rows)


def test_game_ids_are_unguessable_and_url_safe():
    made = {new_game_id() for _ in range(1000)}
    assert len(made) == 1000 and all(is_game_id(game_id) for game_id in made)
    assert not any(is_game_id(bad) for bad in ("", "x" * 21, "x" * 23, "a/" * 11, None, 7))


def _with(**changes: object) -> dict:
    return {**played_record().to_fields(), **changes}


def _without(name: str) -> dict:
    fields = played_record().to_fields()
    del fields[name]
    return fields


GARBAGE = {
    **{f"no {name}": _without(name) for name in FIELD_TYPES if name not in ADDED_FIELDS},
    **{f"{name} is None": _with(**{name: None}) for name in FIELD_TYPES},
    **{f"{name} is a list": _with(**{name: [1]}) for name in FIELD_TYPES},
    "version is a bool": _with(version=True),
    "seq is a float": _with(seq=1.5),
    "seq is negative": _with(seq=-1),
    "played is 2": _with(played=2),
    "played is text": _with(played="yes"),
    "created is NaN": _with(created=float("nan")),
    "last_played is infinite": _with(last_played=float("inf")),
    "id is not a game id": _with(id="../../etc/passwd"),
    "game is not JSON": _with(game="{"),
    "game is JSON of a list": _with(game="[]"),
    "game is a position only": _with(game=old_fields("S" * 22)["position"]),
    "game is bytes not UTF-8": _with(game=b"\xff\xfe"),
    "game is a history and another game's position": _with(game=json.dumps({
        "position": json.loads(old_fields("W" * 22)["position"]),
        "history": json.loads(old_fields("S" * 22)["history"]),
    })),
    "seq is text not a number": _with(seq=b"seven"),
    "day is not a date": _with(day="yesterday"),
    "day is a date written without dashes": _with(day="20261205"),
}


@pytest.mark.parametrize("fields", GARBAGE.values(), ids=GARBAGE.keys())
def test_anything_else_is_refused_with_a_value_error(fields):
    with pytest.raises(ValueError):
        GameRecord.from_fields(fields)


def test_a_game_is_kept_as_one_text():
    """Failed before: a game was kept as two texts, its position and its history."""
    fields = played_record().to_fields()
    assert [name for name in fields if isinstance(fields[name], str) and name != "id"] == [
        "status", "day", "game"]
    assert json.loads(fields["game"])["count"] == 5


def test_a_daily_games_day_reads_back_and_a_record_written_before_days_were_kept_has_none():
    record = played_record()
    record.day = date(2026, 12, 5)
    fields = record.to_fields()
    assert fields["day"] == "2026-12-05"
    assert GameRecord.from_fields(fields).day == date(2026, 12, 5)
    assert GameRecord.from_fields(_without("day")).day is None
    assert GameRecord.from_fields(played_record().to_fields()).day is None


def test_a_record_kept_as_two_texts_still_reads_and_is_written_as_one():
    old = old_fields("S" * 22)
    back = GameRecord.from_fields(old)
    assert back.game.moves == len(back.game.history) == old["moves"] == 7
    assert (back.game.score, back.game.seed) == (old["score"], json.loads(old["position"])["seed"])
    fields = back.to_fields()
    assert "position" not in fields and json.loads(fields["game"])["version"] == 3
    again = GameRecord.from_fields(fields)
    assert again.game.position == back.game.position and again.game.history == back.game.history
    assert again.to_fields() == fields


@pytest.mark.parametrize("history_of", ["W" * 22, "L" * 22])
def test_a_record_kept_as_two_texts_that_disagree_is_refused(history_of):
    fields = {**old_fields("S" * 22), "history": old_fields(history_of)["history"]}
    with pytest.raises(ValueError):
        GameRecord.from_fields(fields)
