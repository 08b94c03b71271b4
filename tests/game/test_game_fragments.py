"""What a move's fragment tells the page to animate, for known positions: where each tile slides
from (data-from-row/col), which tile is new (data-new), which was merged (data-merged) and which
two tiles it was merged from (data-leaving, drawn sliding into the merged tile's cell)."""

from __future__ import annotations

from engine import Game
from tests.board_html import tiles_drawn

EMPTY = [0, 0, 0, 0]


def without_id(tile: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in tile.items() if name != "id"}


def start_at(player, store, rows, seed: int) -> dict[tuple[str, str], str]:
    """Replace the player's game by this position; the page's tile ids by (row, col)."""
    store.update(store.sid_of(player.client), game=Game.from_rows(rows, seed=seed))
    return {(tile["row"], tile["col"]): tile["id"] for tile in tiles_drawn(player.client.get("/").text)}


def test_a_move_draws_slides_merges_and_the_new_tile_from_where_they_start(player, store):
    ids = start_at(player, store, [[0, 0, 0, 8], EMPTY, [0, 0, 2, 2], EMPTY], seed=3)
    tiles = tiles_drawn(player.move("left").text)
    by_id = {tile["id"]: tile for tile in tiles if "leaving" not in tile}
    assert without_id(by_id[ids["0", "3"]]) == {
        "value": "8", "row": "0", "col": "0", "from-row": "0", "from-col": "3"}
    leaving = [tile for tile in tiles if "leaving" in tile]
    assert leaving == [
        {"id": ids["2", "2"], "value": "2", "row": "2", "col": "0", "from-row": "2",
         "from-col": "2", "leaving": ""},
        {"id": ids["2", "3"], "value": "2", "row": "2", "col": "0", "from-row": "2",
         "from-col": "3", "leaving": ""},
    ]
    merged = [tile for tile in tiles if "merged" in tile]
    assert [without_id(tile) for tile in merged] == [
        {"value": "4", "row": "2", "col": "0", "merged": ""}]
    assert merged[0]["id"] not in ids.values()
    new = [tile for tile in tiles if "new" in tile]
    assert len(new) == 1 and new[0]["value"] in ("2", "4")
    assert not {"from-row", "from-col", "merged"} & set(new[0])
    assert (new[0]["row"], new[0]["col"]) not in {("0", "0"), ("2", "0")}
    assert new[0]["id"] not in ids.values()
    assert len(tiles) == 5  # the 8, the merged 4 and its two parents, the new tile


def test_the_next_move_starts_each_tile_from_its_cell_and_nothing_is_new_but_the_spawn(player,
                                                                                     store):
    start_at(player, store, [[0, 0, 0, 8], EMPTY, [0, 0, 2, 2], EMPTY], seed=3)
    first = {tile["id"]: tile for tile in tiles_drawn(player.move("left").text)
             if "leaving" not in tile}
    second = tiles_drawn(player.move("right").text)
    assert not [tile for tile in second if "leaving" in tile or "merged" in tile]
    for tile in second:
        if tile["id"] in first:
            before = first[tile["id"]]
            assert (tile["from-row"], tile["from-col"]) == (before["row"], before["col"])
            assert tile["row"] == before["row"] and "new" not in tile
    assert [tile["id"] in first for tile in second].count(False) == 1  # the one spawned


def test_a_new_game_draws_its_two_tiles_as_new_without_a_start(player):
    tiles = tiles_drawn(player.post("/new").text)
    assert len(tiles) == 2
    for tile in tiles:
        assert "new" in tile and not {"from-row", "from-col", "merged", "leaving"} & set(tile)
