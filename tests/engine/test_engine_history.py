"""A game's history: recording, replay, undo, and its part of the saved form, checked against
play itself and against the reference game."""

import base64
import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import Game, history_codec
from engine import history as history_module
from tests.engine.reference_2048 import ReferenceGame, playable_boards
from tests.engine.test_engine_saved_game import round_trip, starting_where

EMPTY = [0, 0, 0, 0]


@contextlib.contextmanager
def checkpoint_every(moves):
    """Games started inside record a checkpoint every `moves` moves (the engine's: 1000)."""
    default = history_module.CHECKPOINT_EVERY
    history_module.CHECKPOINT_EVERY = moves
    try:
        yield
    finally:
        history_module.CHECKPOINT_EVERY = default


def play_randomly(game, moves, seed=0):
    """Random legal moves (keeping playing after a win); the position after each."""
    generator = random.Random(seed)
    seen = [game.position]
    while len(seen) <= moves:
        game.keep_playing()
        if not game.legal_moves():
            break
        assert game.move(generator.choice(game.legal_moves()))
        seen.append(game.position)
    return seen


def not_awaiting(position):
    return position._replace(awaiting_choice=False)


def near_win():
    return Game.from_rows([[1024, 1024, 0, 0], EMPTY, EMPTY, [2, 0, 0, 0]], seed=11)


# --- recording and the saved form ----------------------------------------------------------


def test_a_new_game_records_from_its_first_tiles():
    game = Game.new(seed=5)
    start = game.position
    play_randomly(game, 30)
    history = game.history
    assert history.start == start and len(history) == 30 == game.moves
    assert Game.replay(history, 0).position == start


def test_a_history_reads_back_with_its_game():
    with checkpoint_every(7):
        game = Game.new(seed=6)
        play_randomly(game, 60, seed=1)
    history, data = game.history, game.to_saved()
    restored = round_trip(game).history
    assert restored == history and restored.directions() == history.directions()
    assert len(restored) == 60 and restored.start == history.start
    assert len(checkpoints_of(data)) == 60 // 7 and data["checkpoint_every"] == 7


def test_moves_are_two_bits_each_in_direction_order():
    game = Game.from_rows([[2, 0, 0, 0], EMPTY, EMPTY, [0, 0, 0, 4]], seed=1)
    for direction in ("right", "down", "left", "up", "right"):
        assert game.move(direction)
    data = game.to_saved()
    # codes up 0, down 1, left 2, right 3; four a byte, the first in the lowest bits
    assert data["count"] == 5
    assert base64.b64decode(data["moves"]) == bytes([0b00_10_01_11, 0b11])


def test_the_history_is_a_value_later_moves_do_not_change():
    game = Game.new(seed=8)
    play_randomly(game, 10)
    history = game.history
    directions, start = history.directions(), history.start
    play_randomly(game, 10, seed=2)
    assert history.directions() == directions and history.start == start and len(history) == 10
    assert game.history != history and len(game.history) == 20


def test_keep_playing_is_not_a_move():
    game = near_win()
    assert game.move("left") and game.awaiting_choice
    game.keep_playing()
    assert len(game.history) == 1


def test_a_game_whose_saved_history_starts_later_records_from_there():
    game = Game.new(seed=9)
    play_randomly(game, 25)
    loaded = starting_where(game)
    assert len(loaded.history) == 0 and loaded.history.start == game.position
    seen = play_randomly(loaded, 5, seed=3)
    assert Game.replay(loaded.history).position == seen[-1]
    assert Game.replay(loaded.history, 0).position == seen[0] and seen[-1].moves == 30


def test_a_loaded_game_goes_on_recording_into_its_history():
    with checkpoint_every(4):
        game = Game.new(seed=10)
        seen = play_randomly(game, 9)
        loaded = round_trip(game)
        seen += play_randomly(loaded, 9, seed=4)[1:]
    assert loaded.history.directions()[:9] == game.history.directions()
    for moves, position in enumerate(seen):
        assert Game.replay(loaded.history, moves).position == position


def test_checkpoints_made_while_no_id_is_read_hold_the_ids_of_play():
    # Ids are worked out only when read: here nothing reads them for 50 moves and 16 checkpoints.
    directions = engine.DIRECTIONS * 40
    with checkpoint_every(3):
        unread, watched = Game.new(seed=33), Game.new(seed=33)
        seen = [watched.position]
        for direction in directions:
            if unread.moves == 50:
                break
            if unread.move(direction):
                assert watched.move(direction)
                seen.append(watched.position)
    history = unread.history
    assert len(history) == 50 and history == watched.history
    for moves, position in enumerate(seen):
        assert Game.replay(history, moves).position == position


# --- replay ----------------------------------------------------------------------------------


@pytest.mark.parametrize("spacing", [1, 5, 1000])
def test_replay_at_every_move_is_the_position_seen_in_play(spacing):
    with checkpoint_every(spacing):
        game = Game.new(seed=12)
        seen = play_randomly(game, 400, seed=5)
    history = round_trip(game).history
    for moves, position in enumerate(seen):
        assert Game.replay(history, moves).position == position
    assert Game.replay(history).position == seen[-1]


def test_a_replayed_game_plays_on_like_the_original():
    game = Game.new(seed=13)
    play_randomly(game, 50)
    replayed = Game.replay(game.history, 50)
    for direction in ("left", "down", "right", "up") * 3:
        assert game.move(direction) == replayed.move(direction)
        assert replayed.position == game.position
        assert [(t.id, t.previous, t.is_new) for t in replayed.tiles] == [
            (t.id, t.previous, t.is_new) for t in game.tiles
        ]
    assert replayed.history == game.history


def test_replay_stops_at_the_win_awaiting_the_choice():
    game = near_win()
    assert game.move("left")
    won = game.position
    game.keep_playing()
    assert game.move("down")
    assert Game.replay(game.history, 1).position == won  # awaiting, as play left it
    assert Game.replay(game.history).position == game.position  # the win was answered


@pytest.mark.parametrize("moves", [-1, 4, 1.0, True, "2"])
def test_replay_out_of_range_is_refused(moves):
    game = Game.new(seed=14)
    play_randomly(game, 3)
    with pytest.raises(ValueError):
        Game.replay(game.history, moves)
    assert Game.replay(game.history, None).position == game.position


def test_a_recorded_move_the_game_refuses_is_a_value_error():
    game = Game.from_rows([[2, 4, 0, 0], EMPTY, EMPTY, EMPTY], seed=1)
    assert game.move("right")
    data = game.to_saved()
    data["moves"] = base64.b64encode(bytes([2])).decode()  # left, which changes nothing
    history = Game.from_saved(data).history
    with pytest.raises(ValueError, match="move 1"):
        Game.replay(history)
    with pytest.raises(ValueError, match="move 1"):
        list(history.walk())


def test_walk_gives_each_move_with_the_rows_before_it():
    with checkpoint_every(6):
        game = Game.new(seed=15)
        seen = play_randomly(game, 80, seed=6)
    steps = list(game.history.walk())
    assert [step.direction for step in steps] == list(game.history.directions())
    assert [step.rows for step in steps] == [position.rows for position in seen[:-1]]
    assert engine.slide(steps[0].rows, steps[0].direction)[0] != steps[0].rows


# --- undo ------------------------------------------------------------------------------------


def test_undo_at_the_start_changes_nothing():
    game = Game.new(seed=16)
    before = game.position
    assert game.undo() is False
    assert game.position == before and len(game.history) == 0


@pytest.mark.parametrize("spacing", [1, 3, 1000])
def test_undo_back_to_the_start_retraces_every_position(spacing):
    with checkpoint_every(spacing):
        game = Game.new(seed=17)
        seen = play_randomly(game, 120, seed=7)
        loaded = round_trip(game)
        for position in reversed(seen[:-1]):
            assert loaded.undo()
            assert loaded.position == not_awaiting(position)
        assert loaded.undo() is False
        assert loaded.history == Game.new(seed=17).history


def test_undo_then_the_same_move_brings_the_same_tile():
    game = Game.new(seed=18)
    play_randomly(game, 40, seed=8)
    direction = game.legal_moves()[0]
    assert game.move(direction)
    after, tiles = game.position, game.tiles
    assert game.undo()
    assert game.move(direction)
    assert game.position == after and game.tiles == tiles


def test_undo_then_another_move_forgets_the_undone_one():
    with checkpoint_every(2):
        game = Game.new(seed=19)
        play_randomly(game, 11, seed=9)
        kept = game.history
        first, *_ = game.legal_moves()
        game.move(first)
        game.undo()
        other = next(d for d in game.legal_moves() if d != first)
        game.move(other)
    assert game.history.directions() == kept.directions() + (other,)
    assert Game.replay(game.history).position == game.position


def test_undo_shows_no_last_move():
    game = Game.new(seed=20)
    play_randomly(game, 5)
    game.undo()
    assert all(t.previous is None and not t.is_new and t.merged_from is None for t in game.tiles)


def test_undoing_the_winning_merge_takes_the_win_back():
    game = near_win()
    before = game.position
    assert game.move("left") and game.won and game.awaiting_choice
    assert game.undo()
    assert game.position == before and not game.won and not game.awaiting_choice
    assert game.status == engine.Status.PLAYING
    assert game.move("left") and game.awaiting_choice  # 2048 again asks again


def test_undoing_a_move_after_keep_playing_keeps_the_choice():
    game = near_win()
    assert game.move("left")
    won = game.position
    game.keep_playing()
    assert game.move("down")
    assert game.undo()
    assert game.position == not_awaiting(won) and game.won
    assert game.legal_moves() and game.move("down")


def test_undo_of_a_loaded_game_reaches_back_into_its_history():
    game = Game.new(seed=21)
    seen = play_randomly(game, 30)
    loaded = round_trip(game)
    for _ in range(10):
        loaded.undo()
    assert loaded.position == not_awaiting(seen[20])
    saved = round_trip(loaded)
    assert saved.undo() and saved.position == not_awaiting(seen[19])


# --- against the reference game --------------------------------------------------------------


def reference_after(start, directions):
    reference = ReferenceGame(start.rows, start.score, start.seed, start.spawns)
    for direction in directions:
        assert reference.move(direction)
    return reference


def test_play_matches_the_reference_game_move_by_move():
    game = Game.new(seed=22)
    reference = ReferenceGame(game.rows, 0, 22, 2)
    generator = random.Random(22)
    while game.legal_moves() or game.awaiting_choice:
        game.keep_playing()
        direction = generator.choice(engine.DIRECTIONS)
        assert game.move(direction) == reference.move(direction)
        assert (game.rows, game.score) == (reference.rows, reference.score)


@pytest.mark.parametrize("spacing", [4, 1000])
def test_replay_and_undo_match_the_reference_game(spacing):
    with checkpoint_every(spacing):
        game = Game.new(seed=23)
        play_randomly(game, 150, seed=10)
    history = game.history
    directions = history.directions()
    for moves in range(0, len(directions) + 1, 7):
        replayed = Game.replay(history, moves)
        reference = reference_after(history.start, directions[:moves])
        assert (replayed.rows, replayed.score) == (reference.rows, reference.score)
    for moves in range(len(directions) - 1, -1, -1):
        assert game.undo()
        if moves % 11 == 0:
            reference = reference_after(history.start, directions[:moves])
            assert (game.rows, game.score) == (reference.rows, reference.score)


actions = st.lists(st.one_of(st.sampled_from(engine.DIRECTIONS), st.just("undo")), max_size=60)


@settings(max_examples=150, deadline=None)
@given(playable_boards, st.integers(0, 2**64 - 1), actions, st.sampled_from([1, 3, 1000]))
def test_any_moves_and_undos_equal_a_replay_of_the_moves_that_survive(rows, seed, todo, spacing):
    with checkpoint_every(spacing):
        game = Game.from_rows(rows, seed=seed)
        start = game.position
        surviving = []
        for action in todo:
            if action == "undo":
                assert game.undo() == bool(surviving)
                surviving[-1:] = []
            else:
                game.keep_playing()
                if game.move(action):
                    surviving.append(action)
        fresh = Game.from_rows(rows, seed=seed)
        for direction in surviving:
            fresh.keep_playing()
            assert fresh.move(direction)
    if todo and todo[-1] == "undo":
        fresh.keep_playing()  # an undo never leaves the win banner up
    assert game.position == fresh.position
    assert game.history == fresh.history and game.history.directions() == tuple(surviving)
    assert Game.replay(game.history).rows == game.rows
    reference = reference_after(start, surviving)
    assert (game.rows, game.score) == (reference.rows, reference.score)


# --- refusing what does not fit --------------------------------------------------------------


def valid():
    with checkpoint_every(10):
        game = Game.new(seed=31)
        play_randomly(game, 25, seed=11)
    return game.to_saved()


def with_change(change):
    data = valid()
    change(data)
    return data


def set_key(key, value):
    return lambda data: data.__setitem__(key, value)


def checkpoints_of(data):
    expected = data["count"] // data["checkpoint_every"]
    return list(history_codec.decode_checkpoints(data["checkpoints"], expected))


def change_checkpoints(change):
    """A change to the decoded checkpoints, written back packed."""

    def apply(data):
        checkpoints = checkpoints_of(data)
        change(checkpoints)
        data["checkpoints"] = history_codec.encode_checkpoints(tuple(checkpoints))

    return apply


def change_checkpoint(index, change):
    return change_checkpoints(lambda cps: cps.__setitem__(index, change(cps[index])))


def change_checkpoint_bytes(change):
    """A change to the packed bytes of the checkpoints."""

    def apply(data):
        packed = bytearray(base64.b64decode(data["checkpoints"]))
        change(packed)
        data["checkpoints"] = base64.b64encode(bytes(packed)).decode()

    return apply


def set_cell(checkpoint, cell, exponent):
    board = checkpoint.board & ~(31 << 5 * cell) | exponent << 5 * cell
    return checkpoint._replace(board=board)


def tile_cells(checkpoint):
    return [cell for cell in range(16) if checkpoint.board >> 5 * cell & 31]


def largest_cell(checkpoint):
    return max(tile_cells(checkpoint), key=lambda cell: checkpoint.board >> 5 * cell & 31)


def lower_second_checkpoint_score(data):
    def lower(checkpoints):
        checkpoints[1] = checkpoints[1]._replace(score=checkpoints[0].score - 2)

    change_checkpoints(lower)(data)


def renumber_first_checkpoint(data):
    """Ids 1, 2, ... and the next id after them: fewer ids than its ten moves handed out."""

    def renumber(checkpoint):
        ids = [0] * 16
        for number, cell in enumerate(tile_cells(checkpoint), 1):
            ids[cell] = number
        return checkpoint._replace(ids=tuple(ids), next_id=len(tile_cells(checkpoint)) + 1)

    change_checkpoint(0, renumber)(data)


def grow_largest_tile(data):
    """A 1024 in place of the largest tile: the tiles' sum grows far more than 2 to 4 a move."""
    change_checkpoint(0, lambda cp: set_cell(cp, largest_cell(cp), 10))(data)


def only_one_tile(checkpoint):
    keep = tile_cells(checkpoint)[0]
    board = checkpoint.board & 31 << 5 * keep
    ids = tuple(tile_id if cell == keep else 0 for cell, tile_id in enumerate(checkpoint.ids))
    return checkpoint._replace(board=board, ids=ids)


def two_largest_tiles(checkpoint):
    first, second = tile_cells(checkpoint)[:2]
    return set_cell(set_cell(checkpoint, first, 17), second, 17)


def first_tile_id(new_id):
    """The first tile's id changed to new_id(checkpoint)."""

    def change(checkpoint):
        ids = list(checkpoint.ids)
        ids[tile_cells(checkpoint)[0]] = new_id(checkpoint)
        return checkpoint._replace(ids=tuple(ids))

    return change


def second_id_as_first(checkpoint):
    ids = list(checkpoint.ids)
    first, second = tile_cells(checkpoint)[:2]
    ids[second] = ids[first]
    return checkpoint._replace(ids=tuple(ids))


def in_first_checkpoint(change):
    return lambda: with_change(change_checkpoint(0, change))


def in_checkpoint_bytes(change):
    return lambda: with_change(change_checkpoint_bytes(change))


def end_inside_a_number(packed):
    packed[-1] |= 0x80  # the last age now says another byte follows


def needless_byte_in_score(packed):
    assert packed[10] < 0x80  # the first score (under 128 after ten moves) takes one byte
    packed[10] |= 0x80
    packed.insert(11, 0)


def overlong_score(packed):
    packed[10:11] = b"\x80" * 30 + b"\x01"  # 2**210: 31 bytes


def set_unused_bits(data):
    packed = bytearray(base64.b64decode(data["moves"]))
    packed[-1] |= 0b1100_0000  # 25 moves: the last byte holds one, its top six bits are unused
    data["moves"] = base64.b64encode(bytes(packed)).decode()


def edit(key, change):
    return lambda data: data.__setitem__(key, change(data[key]))


def start_last_points(points):
    return lambda data: data["start"].__setitem__("last_points", points)


MALFORMED = {
    "not a dict": lambda: [1, 2],
    "none": lambda: None,
    "string": lambda: "{}",
    "missing key": lambda: with_change(lambda data: data.pop("count")),
    "extra key": lambda: with_change(set_key("undo_stack", [])),
    "unknown version": lambda: with_change(set_key("version", 4)),
    "a history's version 2": lambda: with_change(set_key("version", 2)),
    "version as string": lambda: with_change(set_key("version", "3")),
    "start not a dict": lambda: with_change(set_key("start", [])),
    "start that does not load": lambda: with_change(start_last_points(3)),
    "negative count": lambda: with_change(set_key("count", -1)),
    "count as float": lambda: with_change(set_key("count", 25.0)),
    "count as bool": lambda: with_change(set_key("count", True)),
    "count one too many for the bytes": lambda: with_change(set_key("count", 29)),
    "count one too few for the bytes": lambda: with_change(set_key("count", 24)),
    "moves as bytes": lambda: with_change(edit("moves", str.encode)),
    "moves as list": lambda: with_change(set_key("moves", [0, 1, 2])),
    "moves not base64": lambda: with_change(set_key("moves", "!!!!" * 2)),
    "moves without padding": lambda: with_change(edit("moves", lambda text: text.rstrip("="))),
    "moves with a newline": lambda: with_change(edit("moves", lambda text: text + "\n")),
    "moves not ascii": lambda: with_change(set_key("moves", "ÀÀÀÀ")),
    "unused bits set": lambda: with_change(set_unused_bits),
    "checkpoint spacing zero": lambda: with_change(set_key("checkpoint_every", 0)),
    "checkpoint spacing negative": lambda: with_change(set_key("checkpoint_every", -10)),
    "checkpoint spacing as string": lambda: with_change(set_key("checkpoint_every", "10")),
    "checkpoint spacing not the one recorded": lambda: with_change(set_key("checkpoint_every", 12)),
    "checkpoints as list": lambda: with_change(set_key("checkpoints", [])),
    "checkpoints not base64": lambda: with_change(set_key("checkpoints", "?")),
    "checkpoints with a line break": lambda: with_change(edit("checkpoints", "\n".join)),
    "a checkpoint missing": lambda: with_change(change_checkpoints(list.pop)),
    "a checkpoint too many": lambda: with_change(change_checkpoints(lambda cps: cps.append(cps[1]))),
    "checkpoints end inside a board": in_checkpoint_bytes(lambda packed: packed.extend(bytes(4))),
    "checkpoints end inside a number": in_checkpoint_bytes(end_inside_a_number),
    "a number with a needless byte": in_checkpoint_bytes(needless_byte_in_score),
    "a number too long": in_checkpoint_bytes(overlong_score),
    "checkpoint odd score": in_first_checkpoint(lambda cp: cp._replace(score=cp.score + 1)),
    "checkpoint tile above 131072": in_first_checkpoint(lambda cp: set_cell(cp, largest_cell(cp), 18)),
    "checkpoint with two 131072": in_first_checkpoint(two_largest_tiles),
    "checkpoint with one tile": in_first_checkpoint(only_one_tile),
    "checkpoint tile of age 0": in_first_checkpoint(first_tile_id(lambda cp: cp.next_id)),
    "checkpoint tile older than the game": in_first_checkpoint(first_tile_id(lambda cp: -1)),
    "checkpoint duplicate id": in_first_checkpoint(second_id_as_first),
    "checkpoint score below the one before": lambda: with_change(lower_second_checkpoint_score),
    "checkpoint with too few new ids": lambda: with_change(renumber_first_checkpoint),
    "checkpoint tiles grown too much": lambda: with_change(grow_largest_tile),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_malformed_history_is_refused_with_value_error(name):
    with pytest.raises(ValueError):
        Game.from_saved(MALFORMED[name]())


@pytest.mark.parametrize(
    "change, reason",
    [
        (lower_second_checkpoint_score, "score cannot go down"),
        (grow_largest_tile, "adds a 2 or a 4"),
        (renumber_first_checkpoint, "new tile an id"),
    ],
)
def test_a_checkpoint_that_cannot_follow_the_one_before_is_refused_for_that(change, reason):
    with pytest.raises(ValueError, match=reason):
        Game.from_saved(with_change(change))


def test_the_unchanged_history_loads():
    assert Game.from_saved(valid()).to_saved() == valid()


def ending_at(start, rows):
    """`start`'s saved form with one move (right) recorded and the tiles of `rows` (numbered
    in reading order) as its end."""
    data = start.to_saved()
    data["count"], data["moves"] = 1, base64.b64encode(bytes([3])).decode()
    end = Game.from_rows(rows, seed=start.seed).position
    data["end"]["tiles"] = history_codec.encode_checkpoints(
        (history_codec.Checkpoint(end.board, end.score, end.next_id, end.ids),))
    return data


def test_a_position_whose_largest_tile_shrank_does_not_follow_its_history():
    start = Game.from_rows([[64, 2, 0, 0], EMPTY, EMPTY, EMPTY], seed=4)
    # the same tile sum plus one 2, but the 64 became two 32s
    with pytest.raises(ValueError, match="largest tile cannot shrink"):
        Game.from_saved(ending_at(start, [[32, 32, 2, 2], EMPTY, EMPTY, EMPTY]))
    assert Game.from_saved(ending_at(start, [[64, 2, 2, 0], EMPTY, EMPTY, EMPTY])).moves == 1


def test_an_end_that_is_not_the_checkpoint_it_is_at_is_refused():
    """20 moves, a checkpoint every 10: the end is checkpoint 2 exactly, or it is refused."""
    with checkpoint_every(10):
        game = Game.new(seed=32)
        play_randomly(game, 20, seed=12)
    data = game.to_saved()
    Game.from_saved(data)
    (end,) = history_codec.decode_checkpoints(data["end"]["tiles"], 1)
    data["end"]["tiles"] = history_codec.encode_checkpoints((end._replace(score=end.score + 2),))
    with pytest.raises(ValueError, match="after no move must be the one before it"):
        Game.from_saved(data)


def leb128(number):
    """Unsigned LEB128, written out for the test: 7 bits a byte, lowest first."""
    encoded = []
    while True:
        byte, number = number & 0x7F, number >> 7
        encoded.append(byte | (0x80 if number else 0))
        if not number:
            return bytes(encoded)


def test_checkpoints_are_packed_as_documented():
    with checkpoint_every(2):
        game = Game.from_rows([[2, 2, 0, 0], [0, 0, 0, 128], EMPTY, EMPTY], seed=1)
        assert game.move("left") and game.move("right")
    data = game.to_saved()
    exponents = [value.bit_length() - 1 if value else 0 for row in game.rows for value in row]
    board = sum(exponent << 5 * cell for cell, exponent in enumerate(exponents))
    next_id = game.position.next_id
    ages = [next_id - tile.id for tile in game.tiles]  # reading order
    expected = board.to_bytes(10, "little") + leb128(game.score) + leb128(next_id)
    assert base64.b64decode(data["checkpoints"]) == expected + b"".join(map(leb128, ages))
    assert game.score == 4 and leb128(300) == b"\xac\x02"
