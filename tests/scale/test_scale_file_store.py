"""The filesystem store: a full or unwritable disk is a clean 503, and the store stays bounded.

The tests run as root, which ignores file permissions, so faults are injected where cachelib
creates its temporary file: the first thing every write does.
"""

from __future__ import annotations

import errno
import multiprocessing
import os

import cachelib.file
import pytest
from scale_support import Player, build_app, replay, stored, stored_game

from webapp.store.file_cache import CountedFileCache
from webapp.store.locks import FileLocks


def failing_mkstemp(code: int):
    def mkstemp(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    return mkstemp


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES, errno.EROFS])
def test_a_refused_write_is_a_503_and_leaves_the_game_as_it_was(file_app, monkeypatch, code):
    player = Player(file_app.test_client())
    before = stored(file_app, player.sid)
    direction = stored_game(file_app, player.sid).legal_moves()[0]

    with monkeypatch.context() as faults:
        faults.setattr(cachelib.file.tempfile, "mkstemp", failing_mkstemp(code))
        answer = player.move(direction, 1)
        assert answer.status_code == 503
        assert "reach the game server, retrying" in answer.text
        assert "Set-Cookie" not in answer.headers
    assert stored(file_app, player.sid) == before

    assert player.move(direction, 1).headers["X-Seq"] == "1"
    assert stored(file_app, player.sid)["game"] == replay(before["game"], [direction]).to_dict()


def test_the_store_holds_at_most_its_threshold_of_games(tmp_path):
    app = build_app(tmp_path / "instance", SESSION_STORE_MAX_ENTRIES=5)
    for _ in range(12):
        Player(app.test_client())
    files = os.listdir(tmp_path / "instance" / "sessions")
    games = [name for name in files if not name.endswith(".__wz_cache")]
    assert len(games) <= 5 + 2  # the threshold, the entry past it, and cachelib's counter file



def test_workers_adding_games_at_once_keep_the_count_exact(tmp_path):
    """The threshold counts on cachelib's entry counter; two processes must not lose updates."""
    cache = CountedFileCache(str(tmp_path / "games"), FileLocks(str(tmp_path / "count"), stripes=1),
                             threshold=10_000)

    def add_games(worker: int) -> None:
        for number in range(150):
            cache.set(f"game-{worker}-{number}", {"seq": number})

    fork = multiprocessing.get_context("fork")
    workers = [fork.Process(target=add_games, args=(worker,)) for worker in (1, 2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert cache._file_count == 300
