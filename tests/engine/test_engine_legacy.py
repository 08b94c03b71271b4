"""The forms a game was saved in before its one saved form still read back (`engine.legacy`),
and anything their writers never wrote is refused. Each test starts from records that code at
7a5daa9 wrote (tests/store/data): the seeded long game after 7 moves (S), after 1475 with the
win awaiting the choice (W), and after 2345 with two checkpoints (L)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine import Game, legacy

OLD = json.loads((Path(__file__).parents[1] / "store" / "data" / "old_records_redis.json")
                 .read_text())
MOVES = {"S": 7, "W": 1475, "L": 2345}


def old(game: str, form: str) -> dict:
    """The `form` ("position" or "history") of old game `game`, as it was stored."""
    return json.loads(OLD[game * 22][form])


@pytest.mark.parametrize("name", MOVES)
def test_an_old_game_reads_back_as_it_was_written_and_plays_on(name):
    game = legacy.read_game(old(name, "position"), old(name, "history"))
    position, written = game.position, old(name, "position")
    assert [list(row) for row in position.rows] == written["rows"]
    assert [list(position.ids[row * 4: row * 4 + 4]) for row in range(4)] == written["ids"]
    scalars = {field: value for field, value in written.items()
               if field not in ("version", "rows", "ids")}
    assert {field: getattr(position, field) for field in scalars} == scalars
    assert game.moves == len(game.history) == MOVES[name]
    assert game.history.start == legacy.read_position(old(name, "history")["start"])
    assert game.sound_part().position == game.position
    assert Game.from_saved(game.to_saved()).position == game.position


def set_key(key, value):
    return lambda data: data.__setitem__(key, value)


def set_cell(key, row, col, value):
    return lambda data: data[key][row].__setitem__(col, value)


def first_tile(data):
    return next((r, c) for r in range(4) for c in range(4) if data["rows"][r][c])


def first_empty(data):
    return next((r, c) for r in range(4) for c in range(4) if not data["rows"][r][c])


def only_one_tile(data):
    for r in range(4):
        for c in range(4):
            if (r, c) != first_tile(data):
                data["rows"][r][c] = data["ids"][r][c] = 0


def duplicate_id(data):
    cells = [(r, c) for r in range(4) for c in range(4) if data["rows"][r][c]]
    (r1, c1), (r2, c2) = cells[:2]
    data["ids"][r2][c2] = data["ids"][r1][c1]


def id_on_empty_cell(data):
    r, c = first_empty(data)
    data["ids"][r][c] = data["next_id"]
    data["next_id"] += 1


def id_not_below_next_id(data):
    r, c = first_tile(data)
    data["ids"][r][c] = data["next_id"]


def value_on_tile(value):
    def change(data):
        r, c = first_tile(data)
        data["rows"][r][c] = value

    return change


def two_largest(data):
    data["rows"][0] = [131072, 131072, 2, 4]
    data["ids"][0] = [90, 91, 92, 93]
    data["next_id"] = 94
    data["won"] = True


def changed(game, form, change):
    """What makes old game `game`'s `form` with `change` applied to it."""

    def make():
        data = old(game, form)
        change(data)
        return data

    return make


def position_with(change, game="S"):
    return changed(game, "position", change)


TAMPERED_POSITIONS = {
    "not a dict": lambda: [1, 2, 3],
    "none": lambda: None,
    "string": lambda: "{}",
    "missing key": position_with(lambda data: data.pop("score")),
    "extra key": position_with(set_key("cheat", 1)),
    "unknown version": position_with(set_key("version", 2)),
    "version as string": position_with(set_key("version", "1")),
    "version as bool": position_with(set_key("version", True)),
    "negative score": position_with(set_key("score", -4)),
    "odd score": position_with(set_key("score", 7)),
    "float score": position_with(set_key("score", 8.0)),
    "bool score": position_with(set_key("score", True)),
    "string score": position_with(set_key("score", "8")),
    "last points above score": position_with(set_key("last_points", 10**9)),
    "odd last points": position_with(set_key("last_points", 3)),
    "negative moves": position_with(set_key("moves", -1)),
    "negative spawns": position_with(set_key("spawns", -1)),
    "seed too large": position_with(set_key("seed", 2**64)),
    "negative seed": position_with(set_key("seed", -1)),
    "seed as float": position_with(set_key("seed", 1.5)),
    "won as int": position_with(set_key("won", 0)),
    "awaiting choice as string": position_with(set_key("awaiting_choice", "no")),
    "awaiting choice as 1": position_with(set_key("awaiting_choice", 1), game="W"),
    "awaiting choice without won": position_with(set_key("awaiting_choice", True)),
    "won without a 2048": position_with(set_key("won", True)),
    "2048 without won": position_with(value_on_tile(2048)),
    "a win awaiting without won": position_with(set_key("won", False), game="W"),
    "rows not a list": position_with(set_key("rows", "2222")),
    "three rows": position_with(lambda data: data["rows"].pop()),
    "five cells in a row": position_with(lambda data: data["rows"][0].append(0)),
    "row as dict": position_with(set_cell("rows", 0, 0, {})),
    "value not a power of two": position_with(value_on_tile(6)),
    "value one": position_with(value_on_tile(1)),
    "value too large": position_with(value_on_tile(262144)),
    "negative value": position_with(value_on_tile(-2)),
    "value as float": position_with(value_on_tile(2.0)),
    "value as bool": position_with(value_on_tile(True)),
    "value as string": position_with(value_on_tile("2")),
    "two 131072 tiles": position_with(two_largest),
    "one tile": position_with(only_one_tile),
    "ids not a list": position_with(set_key("ids", None)),
    "ids short row": position_with(lambda data: data["ids"][3].pop()),
    "duplicate id": position_with(duplicate_id),
    "id on an empty cell": position_with(id_on_empty_cell),
    "id zero on a tile": position_with(lambda data: set_cell("ids", *first_tile(data), 0)(data)),
    "negative id": position_with(lambda data: set_cell("ids", *first_tile(data), -3)(data)),
    "id as bool": position_with(lambda data: set_cell("ids", *first_tile(data), True)(data)),
    "id not below next id": position_with(id_not_below_next_id),
    "next id as string": position_with(set_key("next_id", "9")),
}


@pytest.mark.parametrize("name", TAMPERED_POSITIONS)
def test_a_tampered_position_is_refused_with_a_value_error(name):
    with pytest.raises(ValueError):
        legacy.read_position(TAMPERED_POSITIONS[name]())


def test_a_position_read_keeps_no_reference_to_its_input():
    data = old("S", "position")
    position = legacy.read_position(data)
    before = copy.deepcopy(position)
    data["ids"][3][0] = 12345
    data["rows"][3][0] = 4
    assert position == before


def history_with(change, game="L"):
    return changed(game, "history", change)


MALFORMED_HISTORIES = {
    "not a dict": lambda: [1, 2],
    "none": lambda: None,
    "missing key": history_with(lambda data: data.pop("count")),
    "extra key": history_with(set_key("undo_stack", [])),
    "the one saved form's version": history_with(set_key("version", 3)),
    "the unreleased version 1": history_with(set_key("version", 1)),
    "version as string": history_with(set_key("version", "2")),
    "start not a dict": history_with(set_key("start", [])),
    "start that does not load": history_with(lambda data: data["start"].__setitem__("score", 3)),
    "count one too many for the bytes": history_with(lambda data: data.update(count=2349)),
    "moves not base64": history_with(set_key("moves", "!!!!" * 2)),
    "checkpoint spacing zero": history_with(set_key("checkpoint_every", 0)),
    "a checkpoint missing": history_with(set_key("checkpoint_every", 1200)),
    "checkpoints not base64": history_with(set_key("checkpoints", "?")),
}


@pytest.mark.parametrize("name", MALFORMED_HISTORIES)
def test_a_malformed_history_is_refused_with_a_value_error(name):
    with pytest.raises(ValueError):
        legacy.read_history(MALFORMED_HISTORIES[name]())
    with pytest.raises(ValueError):
        legacy.read_game(old("L", "position"), MALFORMED_HISTORIES[name]())


def grown_largest_tile(data):
    """A 1024 for the largest tile: more than seven moves' spawns could have added."""
    row, col = max(((r, c) for r in range(4) for c in range(4)),
                   key=lambda cell: data["rows"][cell[0]][cell[1]])
    data["rows"][row][col] = 1024


DISAGREEING = {
    "another seed": lambda position: position.update(seed=position["seed"] + 1),
    "one move more": lambda position: position.update(moves=position["moves"] + 1),
    "one move less": lambda position: position.update(moves=position["moves"] - 1),
    "one spawn more": lambda position: position.update(spawns=position["spawns"] + 1),
    "tiles the moves cannot make": grown_largest_tile,
}


@pytest.mark.parametrize("name", DISAGREEING)
def test_a_position_and_history_that_disagree_are_refused(name):
    position, history = old("S", "position"), old("S", "history")
    legacy.read_game(position, history)
    DISAGREEING[name](position)
    with pytest.raises(ValueError):
        legacy.read_game(position, history)
