"""Merges pop over their tiles: the two tiles of a merge stay under the merged one until it has
popped, so no frame shows the cell empty (as in the original 2048)."""

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

#: Two 2s that merge into the top-left cell.
MERGE_LEFT = [[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]

#: On every animation frame from now until 400 ms after the merged tile appeared, how much of
#: the top-left cell the tiles over its centre cover at most (1: a whole tile, 0: nothing).
SAMPLE_COVER = """() => { window.coverFrames = new Promise((resolve) => {
    const cell = document.querySelector(".grid .cell").getBoundingClientRect();
    const [x, y] = [cell.x + cell.width / 2, cell.y + cell.height / 2];
    const frames = [];
    let mergedAt = null;
    function sample(now) {
        let cover = 0;
        for (const tile of document.querySelectorAll("#board .tile")) {
            const box = tile.getBoundingClientRect();
            if (box.left <= x && x <= box.right && box.top <= y && y <= box.bottom) {
                cover = Math.max(cover, box.width / cell.width);
            }
        }
        const merged = document.querySelector("#board .tile[data-merged]");
        if (merged && mergedAt === null) mergedAt = now;
        if (mergedAt !== null) frames.push({ ms: Math.round(now - mergedAt), cover });
        if (mergedAt !== null && now - mergedAt > 400) resolve(frames);
        else requestAnimationFrame(sample);
    }
    requestAnimationFrame(sample);
}); }"""


def test_the_merging_tiles_stay_under_the_merged_one_until_it_has_popped(page: Page, open_game):
    open_game(page, rows=MERGE_LEFT, seed=1)
    page.evaluate(SAMPLE_COVER)  # sampling starts before the key
    page.keyboard.press("ArrowLeft")
    frames = page.evaluate("window.coverFrames")
    assert len(frames) >= 10, frames  # the pop was watched frame by frame
    empty = [frame for frame in frames if frame["cover"] < 0.99]
    assert empty == [], f"frames with the cell (partly) empty: {empty}"
    assert page.locator("#board .tile[data-leaving]").count() == 0  # gone once popped
