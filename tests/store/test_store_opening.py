"""Opening the database: a file that cannot be written stops the start-up with one line naming
the file and the cause; and a page loaded while the file could not be written leaves nothing
behind that makes the first move after the fault fail."""

from __future__ import annotations

import pytest

from tests.store.test_store_faults import database_files, immutable
from webapp.config import ConfigError
from webapp.store.sqlite_db import Database


def opening_error(path) -> str:
    with pytest.raises(ConfigError) as refused:
        Database(path, busy_timeout=2.0)
    return str(refused.value)


def test_a_read_only_file_is_named_at_start_up(tmp_path):
    path = tmp_path / "games.sqlite3"
    Database(path, busy_timeout=2.0)
    with immutable(path):
        said = opening_error(path)
    assert said.startswith(f"cannot open the game database {path}: it cannot be written")
    assert "games.sqlite3-wal" in said and "SQLITE_PATH" in said


def test_a_folder_that_cannot_be_made_is_named_at_start_up(tmp_path):
    path = tmp_path / "locked" / "instance" / "games.sqlite3"
    path.parent.parent.mkdir()
    with immutable(path.parent.parent):
        said = opening_error(path)
    assert said.startswith(f"cannot open the game database {path}: Operation not permitted: "
                           f"{path.parent}")


def test_a_folder_in_the_file_s_place_is_named_at_start_up(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.mkdir()
    assert opening_error(path).startswith(f"cannot open the game database {path}: it is a folder")


def test_the_first_move_after_the_fault_is_served_even_if_a_page_was_loaded_during_it(
        app, player, store):
    """The page load opens this thread's connection while the file is read-only: SQLite then
    opens it read-only, and that connection used to fail the first write after the fault."""
    direction = store.game_of(player.client).legal_moves()[0]
    with immutable(*database_files(app)):
        assert player.post("/move", direction=direction, seq="1").status_code == 503
        assert player.client.get("/").status_code == 200  # reads still work
    assert player.post("/move", direction=direction, seq="1").headers["X-Seq"] == "1"
