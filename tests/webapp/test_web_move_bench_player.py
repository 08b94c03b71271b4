"""bench/compare/move_cpu.py's player keeps a copy of the server's game, so every move it sends
moves."""

import engine.rng
from bench.compare.move_cpu import Worker


def test_the_move_bench_players_copy_is_the_servers_game(tmp_path, monkeypatch):
    monkeypatch.setattr(engine.rng, "new_seed", engine.rng.new_seed)  # the worker replaces it
    worker = Worker("sqlite", "", str(tmp_path))
    worker.play(60)  # stops the run if the server answers that a move moved nothing
    assert worker.player.seq == 60
    stored = worker.app.extensions["games"].get(worker.player.game)
    assert stored.game.rows == worker.mirror.rows
