"""A history whose stored bits changed: undo and replay say so (DamagedHistory) and change
nothing, and `sound_part` finds the game up to the last point that checks out."""

import pytest

from engine import DamagedHistory, Game
from engine.history_codec import decode_checkpoints, encode_checkpoints
from harness.damage import flip_move
from tests.engine.test_engine_history import checkpoint_every, play_randomly
from tests.leaderboard.leaderboard_support import add_to_score


def played(moves, seed=3, every=10):
    """A seeded game of `moves` random legal moves, a checkpoint every `every` moves."""
    with checkpoint_every(every):
        game = Game.new(seed=seed)
        play_randomly(game, moves, seed=seed)
    assert game.moves == moves
    return game


def damaged(game, move):
    """`game` loaded back with move number `move` of its stored history flipped."""
    return Game.from_saved(flip_move(game.to_saved(), move))


def test_undo_over_a_move_the_game_refuses_raises_and_changes_nothing():
    game = played(35)
    move = next(move for move in range(26, 36) if not _replays(damaged(game, move)))
    broken = damaged(game, move)
    while broken.moves >= move:  # until the replay behind an undo meets the damage
        before = broken.position
        try:
            broken.undo()
        except DamagedHistory:
            break
        assert broken.position == Game.replay(game.history, broken.moves).position
    else:
        pytest.fail("undo went past the damage")
    assert broken.position == before


def test_a_flipped_last_move_that_is_still_legal_is_found_by_undo():
    """The replay to the move before succeeds; only the last move shows the damage."""
    for seed in range(1, 40):
        game = played(25, seed=seed)
        last = game.history.directions()[-1]
        before = Game.replay(game.history, game.moves - 1)
        flipped = {"up": "right", "right": "up", "down": "left", "left": "down"}[last]
        if flipped in before.legal_moves():
            break
    else:
        pytest.fail("no seed whose last move has a legal flip")
    broken = damaged(game, game.moves)
    with pytest.raises(DamagedHistory, match=f"move {game.moves} "):
        broken.undo()
    assert broken.position == game.position


def test_replayed_checks_each_position_on_to_the_next_checkpoint_or_the_game():
    game = played(47)
    for moves in range(48):
        assert game.replayed(moves).position == Game.replay(game.history, moves).position
    for move in range(1, 48):
        broken = damaged(game, move)
        if _replays(broken):  # a flip to another legal move: only where it leads shows it
            stretch = (move - 1) // 10 * 10
            assert broken.replayed(stretch).position == game.replayed(stretch).position
            with pytest.raises(DamagedHistory, match="do not lead"):
                broken.replayed(stretch + 1)
            return
    pytest.fail("no move whose flip is still legal")


def test_the_sound_part_of_an_intact_game_is_the_whole_game():
    for seed in range(5):
        game = played(47, seed=seed)
        sound = game.sound_part()
        assert sound.position == game.position
        assert sound.history == game.history


@pytest.mark.parametrize("move, sound", [(3, 0), (10, 0), (11, 10), (25, 20), (47, 40)])
def test_the_sound_part_ends_at_the_last_checkpoint_before_the_damage(move, sound):
    game = played(47)
    part = damaged(game, move).sound_part()
    assert part.moves == sound
    assert part.position == Game.replay(game.history, sound).position
    assert part.history == Game.replay(game.history, sound).history


def test_a_score_changed_in_the_position_is_not_the_sound_part():
    """Every move and checkpoint replay, but the end is not the stored position."""
    game = played(47)
    saved = game.to_saved()
    add_to_score(saved, 64)
    part = Game.from_saved(saved).sound_part()
    assert part.moves == 40 and part.score <= game.score


def test_a_changed_checkpoint_is_not_sound():
    """A checkpoint's score raised by 4: still a position the checks on load accept."""
    game = played(35)
    saved = game.to_saved()
    checkpoints = list(decode_checkpoints(saved["checkpoints"], 3))
    checkpoints[1] = checkpoints[1]._replace(score=checkpoints[1].score + 4)
    changed = {**saved, "checkpoints": encode_checkpoints(tuple(checkpoints))}
    assert Game.from_saved(changed).sound_part().moves == 10


def _replays(game):
    try:
        Game.replay(game.history)
    except DamagedHistory:
        return False
    return True
