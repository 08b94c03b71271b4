"""Saving and restoring: round trips, replay from the seed, and refusal of tampered data."""

import copy
import json
import random

import pytest

import engine
from engine import Game


def play(game, directions):
    for direction in directions:
        if game.awaiting_choice:
            game.keep_playing()
        game.move(direction)
    return game


def random_directions(count, seed=0):
    generator = random.Random(seed)
    return [generator.choice(engine.DIRECTIONS) for _ in range(count)]


def test_round_trip_through_json_keeps_everything():
    game = play(Game.new(seed=5), random_directions(60))
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.to_dict() == game.to_dict()
    for name in ("rows", "score", "moves", "seed", "won", "awaiting_choice", "over", "last_points"):
        assert getattr(restored, name) == getattr(game, name)


def test_saved_state_is_small():
    game = play(Game.new(seed=5), random_directions(300))
    assert len(json.dumps(game.to_dict())) < 400


def test_same_seed_and_moves_give_the_same_game():
    directions = random_directions(200, seed=1)
    assert play(Game.new(seed=8), directions).to_dict() == play(Game.new(seed=8), directions).to_dict()


def test_replay_with_save_and_restore_midway_gives_the_same_game():
    directions = random_directions(200, seed=2)
    straight = play(Game.new(seed=9), directions)
    halfway = play(Game.new(seed=9), directions[:77])
    resumed = play(Game.from_dict(json.loads(json.dumps(halfway.to_dict()))), directions[77:])
    assert resumed.to_dict() == straight.to_dict()


def test_restore_while_awaiting_choice_keeps_refusing_moves():
    game = Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=3)
    game.move("left")
    restored = Game.from_dict(game.to_dict())
    assert restored.awaiting_choice and restored.move("right") is False
    restored.keep_playing()
    assert restored.move("right")


def valid():
    return play(Game.new(seed=21), random_directions(40, seed=3)).to_dict()


def with_change(change):
    data = valid()
    change(data)
    return data


def set_key(key, value):
    return lambda data: data.__setitem__(key, value)


def set_cell(key, row, col, value):
    return lambda data: data[key][row].__setitem__(col, value)


def first_tile(data):
    return next((r, c) for r in range(4) for c in range(4) if data["rows"][r][c])


def first_empty(data):
    return next((r, c) for r in range(4) for c in range(4) if not data["rows"][r][c])


def near_win_dict():
    return Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=3).to_dict()


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


TAMPERED = {
    "not a dict": lambda: [1, 2, 3],
    "none": lambda: None,
    "string": lambda: "{}",
    "missing key": lambda: with_change(lambda data: data.pop("score")),
    "extra key": lambda: with_change(set_key("cheat", 1)),
    "unknown version": lambda: with_change(set_key("version", 2)),
    "version as string": lambda: with_change(set_key("version", "1")),
    "version as bool": lambda: with_change(set_key("version", True)),
    "negative score": lambda: with_change(set_key("score", -4)),
    "odd score": lambda: with_change(set_key("score", 7)),
    "float score": lambda: with_change(set_key("score", 8.0)),
    "bool score": lambda: with_change(set_key("score", True)),
    "string score": lambda: with_change(set_key("score", "8")),
    "last points above score": lambda: with_change(set_key("last_points", 10**9)),
    "negative moves": lambda: with_change(set_key("moves", -1)),
    "negative spawns": lambda: with_change(set_key("spawns", -1)),
    "seed too large": lambda: with_change(set_key("seed", 2**64)),
    "negative seed": lambda: with_change(set_key("seed", -1)),
    "seed as float": lambda: with_change(set_key("seed", 1.5)),
    "won as int": lambda: with_change(set_key("won", 0)),
    "awaiting choice as string": lambda: with_change(set_key("awaiting_choice", "no")),
    "awaiting choice without won": lambda: with_change(set_key("awaiting_choice", True)),
    "won without a 2048": lambda: with_change(set_key("won", True)),
    "2048 without won": lambda: with_change(value_on_tile(2048)),
    "rows not a list": lambda: with_change(set_key("rows", "2222")),
    "three rows": lambda: with_change(lambda data: data["rows"].pop()),
    "five cells in a row": lambda: with_change(lambda data: data["rows"][0].append(0)),
    "row as dict": lambda: with_change(set_cell("rows", 0, 0, {})),
    "value not a power of two": lambda: with_change(value_on_tile(6)),
    "value one": lambda: with_change(value_on_tile(1)),
    "value too large": lambda: with_change(value_on_tile(262144)),
    "negative value": lambda: with_change(value_on_tile(-2)),
    "value as float": lambda: with_change(value_on_tile(2.0)),
    "value as bool": lambda: with_change(value_on_tile(True)),
    "value as string": lambda: with_change(value_on_tile("2")),
    "two 131072 tiles": lambda: with_change(two_largest),
    "one tile": lambda: with_change(only_one_tile),
    "ids not a list": lambda: with_change(set_key("ids", None)),
    "ids short row": lambda: with_change(lambda data: data["ids"][1].pop()),
    "duplicate id": lambda: with_change(duplicate_id),
    "id on an empty cell": lambda: with_change(id_on_empty_cell),
    "id zero on a tile": lambda: with_change(lambda data: set_cell("ids", *first_tile(data), 0)(data)),
    "negative id": lambda: with_change(lambda data: set_cell("ids", *first_tile(data), -3)(data)),
    "id as bool": lambda: with_change(lambda data: set_cell("ids", *first_tile(data), True)(data)),
    "id not below next id": lambda: with_change(id_not_below_next_id),
    "next id as string": lambda: with_change(set_key("next_id", "9")),
    "near win awaiting without won": lambda: {**near_win_dict(), "awaiting_choice": True},
}


@pytest.mark.parametrize("name", TAMPERED)
def test_tampered_data_is_refused_with_value_error(name):
    data = TAMPERED[name]()
    with pytest.raises(ValueError):
        Game.from_dict(data)


def test_the_untampered_data_loads():
    assert Game.from_dict(valid()).to_dict() == valid()


def test_from_dict_does_not_keep_a_reference_to_the_input():
    data = valid()
    game = Game.from_dict(data)
    snapshot = copy.deepcopy(game.to_dict())
    data["ids"][0][0] = 12345
    data["rows"][0][0] = 4
    assert game.to_dict() == snapshot
