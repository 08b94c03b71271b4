"""A whole game in one saved form (`Game.to_saved`/`from_saved`): it reads back exactly, plays on
without unpacking its moves, and anything malformed is refused. All of these failed before the
form existed."""

from __future__ import annotations

import json
import random

import pytest

from engine import DamagedHistory, Game
from engine.history import CHECKPOINT_EVERY
from harness.damage import flip_move
from harness.long_game import load
from tests.damage_support import played

LONG = load().history  # a seeded game of 20,000 moves


def long_game(moves: int) -> Game:
    return Game.replay(LONG, moves)


def round_trip(game: Game) -> Game:
    return Game.from_saved(json.loads(json.dumps(game.to_saved())))


def starts() -> dict[str, Game]:
    """Games whose histories start in each way a game can start."""
    awaiting = Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]], seed=7)
    awaiting.move("left")
    return {
        "new": Game.new(seed=3),
        "rows": Game.from_rows([[2, 0, 0, 2], [0] * 4, [0] * 4, [0, 4, 0, 0]], score=8, seed=5),
        "loaded, awaiting the choice": Game.from_dict(awaiting.to_dict()),
    }


@pytest.mark.parametrize("name", starts())
@pytest.mark.parametrize("moves", [0, 1, 5, 6, 7, 8])
def test_a_game_reads_back_exactly_whatever_its_start(name, moves):
    game, generator = starts()[name], random.Random(moves)
    while game.moves - game.history.start["moves"] < moves and (
            game.keep_playing() or game.legal_moves()):
        game.move(generator.choice(game.legal_moves()))
    back = round_trip(game)
    assert back.to_dict() == game.to_dict() and back.history == game.history
    assert back.to_saved() == game.to_saved()
    assert back.awaiting_choice == game.awaiting_choice


@pytest.mark.parametrize("moves", [CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, 2 * CHECKPOINT_EVERY + 1])
def test_a_game_plays_on_across_checkpoints_as_if_never_saved(moves):
    game, generator = long_game(moves), random.Random(1)
    loaded = round_trip(game)
    for _ in range(3):
        game.keep_playing(), loaded.keep_playing()
        direction = generator.choice(game.legal_moves())
        assert game.move(direction) and loaded.move(direction)
        loaded = round_trip(loaded)
    assert loaded.to_saved() == game.to_saved() and loaded.history == game.history
    assert loaded.undo() and game.undo() and loaded.to_dict() == game.to_dict()


def test_a_move_after_loading_unpacks_no_move():
    loaded = round_trip(long_game(1500))
    loaded.keep_playing()
    loaded.move(loaded.legal_moves()[0])
    loaded.to_saved()
    assert loaded._recording._codes is None


def test_a_flipped_move_loads_and_is_found_by_the_replay():
    game = played(40, seed=9)
    damaged = Game.from_saved(flip_move(game.to_saved(), 12))
    with pytest.raises(DamagedHistory):
        damaged.undo()
    assert damaged.sound_part().moves < 40


def _with(path: tuple[str, ...], value: object) -> dict:
    saved = json.loads(json.dumps(long_game(1001).to_saved()))
    *parents, last = path
    place = saved
    for key in parents:
        place = place[key]
    place[last] = value
    return saved


GARBAGE = {
    "a list": [],
    "another version": _with(("version",), 2),
    "no end": {key: value for key, value in _with(("count",), 1001).items() if key != "end"},
    "an extra key": _with(("extra",), 1),
    "a bool seed": _with(("seed",), True),
    "one move too many": _with(("count",), 1002),
    "moves not base64": _with(("moves",), "***"),
    "a zero spacing": _with(("checkpoint_every",), 0),
    "a checkpoint missing": _with(("checkpoint_every",), 500),
    "checkpoints not text": _with(("checkpoints",), [1]),
    "an end with one tile": _with(("end", "tiles"), "AgAAAAAAAAAAAAIB"),
    "start tiles not text": _with(("start", "tiles"), ["AgAAAAAAAAAAAAIB"]),
    "end tiles not text": _with(("end", "tiles"), {"tiles": 1}),
    "an end awaiting without a win": _with(("end", "awaiting_choice"), True),
    "an end awaiting as 1": _with(("end", "awaiting_choice"), 1),
    "last points above the score": _with(("end", "last_points"), 10**9),
    "a start with a spawn count": _with(("start", "spawns"), -1),
    "a start with an extra key": _with(("start", "won"), False),
    "an end that is another game's": _with(("end", "tiles"), played(2, seed=4).to_saved()[
        "end"]["tiles"]),
}


@pytest.mark.parametrize("saved", GARBAGE.values(), ids=GARBAGE.keys())
def test_anything_else_is_refused_with_a_value_error(saved):
    with pytest.raises(ValueError):
        Game.from_saved(saved)


def test_games_read_from_one_text_share_nothing_that_changes():
    """Decoded positions are remembered by their text: the second game read from it starts
    where the text says, whatever the first one did."""
    saved = json.loads(json.dumps(long_game(1001).to_saved()))
    first = Game.from_saved(saved)
    tiles = first.tiles
    first.move(first.legal_moves()[0])
    second = Game.from_saved(saved)
    assert second.tiles == tiles and second.moves == 1001
