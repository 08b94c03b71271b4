"""A record whose stored history no longer replays is damaged, not fatal: undo, the end of the
game and the replay find the damage, the player reads so and plays on from the last point of
the history that checks out; never a 500. A score that the history does not lead to is not
accepted when the game ends."""

from __future__ import annotations

import html
import logging
import random
import re

import pytest

from engine import Game
from engine import history as history_module
from harness.damage import damage_stored_move
from tests.damage_support import keep_as_current, played
from tests.leaderboard.leaderboard_support import add_to_score

MESSAGE = re.compile(r'<p id="message"[^>]*>([^<]*)</p>')


def played_to_the_end(seed: int) -> tuple[Game, str]:
    """A seeded game of random legal moves one move before its end, and that last move."""
    game, generator = Game.new(seed=seed), random.Random(seed)
    while True:
        game.keep_playing()
        before = Game.from_saved(game.to_saved())
        direction = generator.choice(game.legal_moves())
        game.move(direction)
        if game.over:
            return before, direction


def keep(player, store, game: Game) -> None:
    """Make `game` the player's current game, as if played through."""
    keep_as_current(store, store.sid_of(player.client), game)
    player.seq = game.moves


def message(answer) -> str:
    return html.unescape(MESSAGE.search(answer.text).group(1))


@pytest.fixture
def checkpoint_every_10(monkeypatch) -> None:
    """Games started from here on record a checkpoint every 10 moves (the engine's: 1000)."""
    monkeypatch.setattr(history_module, "CHECKPOINT_EVERY", 10)


@pytest.fixture
def long_game(player, store, checkpoint_every_10) -> Game:
    """A game of 47 moves with checkpoints every 10 kept as the player's, then move 45 of its
    stored history damaged."""
    game = played(47, seed=18)
    keep(player, store, game)
    damage_stored_move(store.app, player.game, 45)
    return game


def test_undo_on_a_damaged_record_goes_back_to_the_last_checkpoint(
        player, store, long_game, caplog):
    with caplog.at_level(logging.WARNING, logger="webapp.game.play"):
        answer = player.post("/undo", seq=str(player.seq + 1))
    assert answer.status_code == 200
    assert message(answer) == ("This game's saved record was damaged, so it goes on from"
                               " move 40, the last point that checks out.")
    assert answer.headers["X-Seq"] == "48"  # the undo's number is used up
    kept = store.record(store.sid_of(player.client))
    assert kept.game.position == Game.replay(long_game.history, 40).position
    assert len(kept.game.history) == 40 and kept.assisted and kept.repaired
    assert "is damaged (move 4" in caplog.text
    legal = kept.game.legal_moves()[0]
    moved = player.move(legal)
    assert moved.status_code == 200 and message(moved) == ""
    assert store.record(store.sid_of(player.client)).game.moves == 41


def test_undo_on_a_damaged_short_game_goes_back_to_its_start(player, store):
    keep(player, store, played(60, seed=4))
    damage_stored_move(store.app, player.game, 42)
    answer = player.post("/undo", seq=str(player.seq + 1))
    assert answer.status_code == 200 and "from move 0," in message(answer)
    assert store.record(store.sid_of(player.client)).game.position == \
        Game.new(seed=4).position


@pytest.mark.parametrize("lang, said", [("pl", "od ruchu 0,"), ("ja", "（0手目）から続けます")])
def test_the_player_reads_it_in_their_language(player, store, lang, said):
    keep(player, store, played(60, seed=4))
    damage_stored_move(store.app, player.game, 42)
    player.client.set_cookie("lang", lang)
    assert said in message(player.post("/undo", seq=str(player.seq + 1)))


def test_a_final_score_the_history_does_not_lead_to_is_not_accepted(player, store):
    """The score of the position is raised by 64 (still a score a position may have); the
    move that ends the game replays the whole history, which ends at another score."""
    game, last = played_to_the_end(seed=7)
    saved = game.to_saved()
    add_to_score(saved, 64)
    keep(player, store, Game.from_saved(saved))
    answer = player.move(last)
    assert answer.status_code == 200
    assert "saved record was damaged" in message(answer)
    kept = store.record(store.sid_of(player.client)).game
    assert not kept.over and kept.score < game.score
    assert kept.position == Game.replay(game.history, len(kept.history)).position


def test_a_sound_game_ends_with_its_score(player, store):
    game, last = played_to_the_end(seed=7)
    keep(player, store, game)
    answer = player.move(last)
    game.move(last)
    assert answer.status_code == 200 and message(answer) == "" and "Game over" in answer.text
    assert store.record(store.sid_of(player.client)).game.position == game.position


def test_the_replay_of_a_damaged_record_shows_its_last_sound_point(player, store, long_game):
    page = player.client.get(f"/games/{player.game}")
    assert page.status_code == 200
    assert message(page) == ("This game's saved record is damaged: move 47 cannot be"
                             " shown, so this is move 40, the last point that checks out.")
    assert 'data-move="40"' in page.text
    step = player.client.get(f"/games/{player.game}/position?move=46&from=45")
    assert step.status_code == 200 and "move 46 cannot be shown" in message(step)
    stretch = player.client.get(f"/games/{player.game}/position?move=41&from=40")
    assert "move 41 cannot be shown" in message(stretch)  # the damage is somewhere in 41-47
    before = player.client.get(f"/games/{player.game}/position?move=40&from=39")
    assert before.status_code == 200 and message(before) == ""
