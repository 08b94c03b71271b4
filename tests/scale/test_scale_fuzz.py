"""Fuzzing the HTTP API: random sequences of valid, invalid and replayed requests.

After every request the stored game must be a valid game and equal the replay, through the
engine, of the moves (and keep-playing answers) the server accepted since the game began, and
the game's own history must say the same.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from engine import DIRECTIONS, Game
from tests.scale.scale_support import (
    UNLIMITED,
    Tab,
    production_app,
    replay,
    store,
    stored,
    stored_game,
)

NEAR_WIN = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0]]

directions = st.sampled_from(DIRECTIONS)
bad_directions = st.one_of(st.text(max_size=8).filter(lambda text: text not in DIRECTIONS),
                           st.sampled_from(["UP", " left", "left\x00"]))
bad_numbers = st.one_of(st.text(max_size=14).filter(lambda text: not text.isdigit()),
                        st.just("9" * 13), st.just("-1"), st.just("٣"))


class ApiMachine(RuleBasedStateMachine):
    """One player's session, driven by random requests; the model is the list of accepted moves."""

    app = None

    def __init__(self) -> None:
        super().__init__()
        self.player = Tab(self.app.test_client())
        self.begin_game()

    def begin_game(self) -> None:
        self.start = stored_game(self.app, self.player.sid)
        self.accepted, self.seq = [], stored(self.app, self.player.sid)["seq"]

    @rule(direction=directions)
    def move(self, direction):
        answer = self.player.move(direction, self.seq + 1)
        assert answer.status_code == 200
        self.seq += 1
        assert answer.headers["X-Seq"] == str(self.seq)
        self.accepted.append(direction)

    @rule(direction=directions, offset=st.one_of(st.integers(-4, 0), st.integers(2, 10**11)),
          retry=st.booleans())
    def not_the_next_number(self, direction, offset, retry):
        """A retry, another tab's number, or a wild one: answered, never applied; a used
        number on a first try is refused as stale."""
        number = max(self.seq + offset, 0)
        answer = self.player.post("/move", direction=direction, seq=str(number),
                                  **({"retry": "1"} if retry else {}))
        assert answer.status_code == (409 if number <= self.seq and not retry else 200)
        assert answer.headers["X-Seq"] == str(self.seq)

    @rule(direction=directions, game=st.sampled_from(["", "x" * 22, "not a game id"]))
    def for_another_game(self, direction, game):
        answer = self.player.post("/move", direction=direction, seq=str(self.seq + 1), game=game)
        assert answer.status_code in (400, 409)

    @rule(direction=st.one_of(directions, bad_directions), number=bad_numbers)
    def malformed_number(self, direction, number):
        assert self.player.post("/move", direction=direction, seq=number).status_code == 400

    @rule(direction=bad_directions)
    def malformed_direction(self, direction):
        answer = self.player.post("/move", direction=direction, seq=str(self.seq + 1))
        assert answer.status_code == 400

    @rule(direction=directions)
    def without_csrf_token(self, direction):
        form = {"direction": direction, "seq": str(self.seq + 1)}
        answer = self.player.client.post("/move", data=form)
        assert answer.status_code == 400

    @rule(direction=directions, size=st.integers(5_000, 50_000))
    def oversized(self, direction, size):
        padding = "x" * size
        answer = self.player.post("/move", direction=direction, seq=str(self.seq + 1), pad=padding)
        assert answer.status_code == 413

    @rule()
    def keep_playing(self):
        assert self.player.post("/keep-playing").status_code == 200
        self.accepted.append("keep-playing")

    @rule()
    def new_game(self):
        assert self.player.post("/new").status_code == 200
        self.begin_game()

    @rule(seed=st.integers(0, 2**32 - 1))
    def near_a_win(self, seed):
        """A position one merge from 2048, put straight into the store (no route makes one)."""
        store(self.app, self.player.sid, Game.from_rows(NEAR_WIN, seed=seed))
        self.begin_game()

    @rule()
    def reload_page(self):
        assert self.player.client.get("/").status_code == 200

    @rule()
    def hint(self):
        assert self.player.post("/hint").status_code == 200

    @invariant()
    def stored_game_is_the_replay_of_accepted_moves(self):
        saved = stored(self.app, self.player.sid)
        expected = replay(self.start, self.accepted)
        assert saved["game"] == expected.position
        assert saved["seq"] == self.seq
        record = self.app.extensions["games"].get(saved["id"])
        assert Game.replay(record.game.history).rows == saved["game"].rows


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def test_random_request_sequences_keep_the_game_consistent(request, tmp_path, backend):
    config = {"SESSION_BACKEND": backend, **UNLIMITED}
    if backend == "redis":
        config["REDIS_URL"] = request.getfixturevalue("redis_url")

    class Machine(ApiMachine):
        app = production_app(tmp_path / "instance", **config)

    run_state_machine_as_test(Machine, settings=settings(
        max_examples=40, stateful_step_count=20, deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    ))
