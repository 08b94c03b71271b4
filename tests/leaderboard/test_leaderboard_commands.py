"""The operator's commands on the records table, on both stores."""

import re

from tests.leaderboard.leaderboard_support import BOTH_STORES, enter, finish


def run(app, *args: str):
    return app.test_cli_runner().invoke(args=list(args))


@BOTH_STORES
def test_the_operator_lists_the_newest_entries_and_hides_one(app, store, make_player, clock):
    players = [make_player(app.test_client()) for _ in range(2)]
    for number, player in enumerate(players):
        finish(player, store)
        clock.now += 60
        assert enter(player, f"Player {number}").status_code == 303
    listed = run(app, "records", "newest")
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert [re.search(r"'(.*)'", line).group(1) for line in lines] == ["Player 1", "Player 0"]
    hidden = run(app, "records", "hide", players[0].game)
    assert hidden.exit_code == 0 and players[0].game in hidden.output
    table = players[1].client.get("/records").text
    assert "Player 1" in table and "Player 0" not in table
    assert run(app, "records", "newest", "--count", "1").output.count("\n") == 1
    assert "[hidden]" in run(app, "records", "newest").output.splitlines()[1]


def test_hiding_an_entry_that_is_not_there_fails(app):
    result = run(app, "records", "hide", "no-such-game-is-there-")
    assert result.exit_code == 1 and "no entry" in result.output


def test_a_game_id_that_begins_with_a_dash_is_taken_as_the_id(app):
    """One game id in 64 begins with "-" (URL-safe base64); it is not an option."""
    result = run(app, "records", "hide", "-Xq3_no-such-game")
    assert result.exit_code == 1 and "no entry of game -Xq3_no-such-game" in result.output
