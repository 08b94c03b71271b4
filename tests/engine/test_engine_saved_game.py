"""A whole game in one saved form (`Game.to_saved`/`from_saved`): it reads back exactly, plays on
without unpacking its moves, and anything malformed is refused with a ValueError that names the
damage."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine
from engine import DamagedHistory, Game, Position
from engine.history import CHECKPOINT_EVERY
from engine.history_codec import Checkpoint
from engine.position import FLAGS
from harness.damage import flip_move
from harness.long_game import load
from tests.damage_support import played

LONG = load().history  # a seeded game of 20,000 moves
NEAR_WIN = [[1024, 1024, 0, 0], [0] * 4, [0] * 4, [2, 0, 0, 0]]
#: Texts of `Game.to_saved()` (compact JSON) written by the engine at 993fd37, whose saved form
#: this is: the long game after 7, 1000, 1475 (a win awaiting the choice) and 2345 moves, and
#: NEAR_WIN's winning move. Made by running that commit's engine (`git archive 993fd37 engine`).
WRITTEN_BY_993FD37 = json.loads(
    (Path(__file__).parent / "data" / "saved_by_993fd37.json").read_text())


def long_game(moves: int) -> Game:
    return Game.replay(LONG, moves)


def round_trip(game: Game) -> Game:
    return Game.from_saved(json.loads(json.dumps(game.to_saved())))


def play(game: Game, directions) -> Game:
    for direction in directions:
        game.keep_playing()
        game.move(direction)
    return game


def random_directions(count: int, seed: int = 0) -> list[str]:
    generator = random.Random(seed)
    return [generator.choice(engine.DIRECTIONS) for _ in range(count)]


def starting_where(game: Game) -> Game:
    """A game at `game`'s position whose history starts there: saved with no move yet."""
    saved = game.to_saved()
    start = {**saved["end"], "spawns": game.position.spawns, "moves": game.moves}
    return Game.from_saved({**saved, "start": start, "count": 0, "moves": "", "checkpoints": ""})


def starts() -> dict[str, Game]:
    """Games whose histories start in each way a game can start."""
    awaiting = Game.from_rows(NEAR_WIN, seed=7)
    awaiting.move("left")
    return {
        "new": Game.new(seed=3),
        "rows": Game.from_rows([[2, 0, 0, 2], [0] * 4, [0] * 4, [0, 4, 0, 0]], score=8, seed=5),
        "saved awaiting the choice": starting_where(awaiting),
    }


def test_every_field_of_a_position_is_saved():
    """In the tiles (a checkpoint's fields), given by the form as a whole, or as a flag of its
    own: a field added to Position is saved, or this fails."""
    given = {"seed", "spawns", "moves", "won"}
    assert set(Position._fields) == set(Checkpoint._fields) | given | set(FLAGS)
    saved = Game.new(seed=1).to_saved()
    assert set(saved["end"]) == {"tiles", *FLAGS} and set(FLAGS) < set(saved["start"])


@pytest.mark.parametrize("name", WRITTEN_BY_993FD37)
def test_a_game_saved_by_earlier_code_reads_back_and_is_saved_as_the_same_text(name):
    text = WRITTEN_BY_993FD37[name]
    game = Game.from_saved(json.loads(text))
    assert json.dumps(game.to_saved(), separators=(",", ":")) == text
    assert game.sound_part().position == game.position
    if game.history.start == LONG.start:
        assert game.position == long_game(game.moves).position


@pytest.mark.parametrize("name", starts())
@pytest.mark.parametrize("moves", [0, 1, 5, 6, 7, 8])
def test_a_game_reads_back_exactly_whatever_its_start(name, moves):
    game, generator = starts()[name], random.Random(moves)
    while game.moves - game.history.start.moves < moves and (
            game.keep_playing() or game.legal_moves()):
        game.move(generator.choice(game.legal_moves()))
    back = round_trip(game)
    assert back.position == game.position and back.history == game.history
    assert back.to_saved() == game.to_saved()
    for field in ("rows", "score", "moves", "seed", "won", "awaiting_choice", "over",
                  "last_points"):
        assert getattr(back, field) == getattr(game, field)


def test_a_saved_game_is_small():
    game = play(Game.new(seed=5), random_directions(300))
    assert len(json.dumps(game.to_saved())) < 400


def test_same_seed_and_moves_give_the_same_game_saved_and_restored_midway_or_not():
    directions = random_directions(200, seed=2)
    straight = play(Game.new(seed=9), directions)
    halfway = play(Game.new(seed=9), directions[:77])
    resumed = play(round_trip(halfway), directions[77:])
    assert resumed.position == straight.position and resumed.history == straight.history


def test_a_game_saved_awaiting_the_choice_keeps_refusing_moves():
    game = Game.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=3)
    game.move("left")
    restored = round_trip(game)
    assert restored.awaiting_choice and restored.move("right") is False
    restored.keep_playing()
    assert restored.move("right")


def test_a_loaded_game_shares_nothing_with_what_it_was_read_from_or_saved_as():
    saved = json.loads(json.dumps(played(5, seed=2).to_saved()))
    game = Game.from_saved(saved)
    written = json.loads(json.dumps(game.to_saved()))
    saved["start"]["moves"] = 99
    game.to_saved()["start"]["spawns"] = 99
    assert game.to_saved() == written


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
    assert loaded.undo() and game.undo() and loaded.position == game.position


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


def _without(path: tuple[str, str]) -> dict:
    saved = json.loads(json.dumps(long_game(1001).to_saved()))
    del saved[path[0]][path[1]]
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
    "odd last points": _with(("end", "last_points"), 3),
    "an end without last points": _without(("end", "last_points")),
    "an end without awaiting the choice": _without(("end", "awaiting_choice")),
    "an end with an extra key": _with(("end", "won"), False),
    "a start without last points": _without(("start", "last_points")),
    "an end not a dict": _with(("end",), [1]),
    "a start with a spawn count": _with(("start", "spawns"), -1),
    "a start with an extra key": _with(("start", "won"), False),
    "an end that is another game's": _with(("end", "tiles"), played(2, seed=4).to_saved()[
        "end"]["tiles"]),
}


@pytest.mark.parametrize("saved", GARBAGE.values(), ids=GARBAGE.keys())
def test_anything_else_is_refused_with_a_value_error(saved):
    with pytest.raises(ValueError):
        Game.from_saved(saved)


@pytest.mark.parametrize("part, change, damage", [
    ("end", lambda end: end.pop("last_points"), "end keys: missing 'last_points'"),
    ("end", lambda end: end.update(cheat=1), "end keys: unexpected 'cheat'"),
    ("start", lambda start: start.pop("spawns"), "start keys: missing 'spawns'"),
    ("end", lambda end: end.update(last_points=True), "last_points must be an integer"),
])
def test_a_part_with_a_key_missing_or_too_many_is_refused_by_name(part, change, damage):
    saved = played(5, seed=2).to_saved()
    change(saved[part])
    with pytest.raises(ValueError, match=damage):
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
