"""A game whose stored history was found damaged when it ended, and repaired (it went back to
the last point that checks out), is played on to a new end and then kept out of the records
saying it was repaired, never that help was used: no help was. On SQLite and a real
redis-server."""

import re

from harness.damage import flip_move
from tests.leaderboard.leaderboard_support import BOTH_STORES, edit_stored, enter, finish
from webapp.store.game_record import GameRecord

HELP_NOTE = re.compile(r'<p id="help-note"[^>]*>([^<]*)</p>')


def repaired_and_finished(player, store, app) -> GameRecord:
    """The player's game, move 19 of its stored history damaged after 25 moves, then played to
    its end (where the damage is found and the game goes back) and on to a new end."""
    for _ in range(25):
        assert player.move(store.games.get(player.game).game.legal_moves()[0]).status_code == 200
    edit_stored(app, player.game, lambda saved: saved.update(flip_move(saved, 19)))
    finish(player, store)
    return store.games.get(player.game)


@BOTH_STORES
def test_a_repaired_game_is_refused_as_repaired_not_as_played_with_help(player, store, app):
    record = repaired_and_finished(player, store, app)
    assert record.game.over
    for refused in (enter(player), player.client.get(f"/records/enter?game={player.game}")):
        assert refused.status_code == 403
        assert "with help" not in refused.text
        assert "damaged and repaired" in refused.text
    in_polish = enter(player, lang="/pl")
    assert in_polish.status_code == 403 and "został naprawiony" in in_polish.text
    assert record.repaired and not record.assisted


def test_the_page_of_a_repaired_game_says_it_stays_out_for_the_repair(player, store, app):
    repaired_and_finished(player, store, app)
    note = HELP_NOTE.search(player.client.get("/").text).group(1)
    assert note == "This game's saved record was damaged and repaired, so it stays out of the " \
                   "records."
    assert 'id="assisted"' not in player.client.get("/").text
