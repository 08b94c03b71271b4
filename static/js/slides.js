// Playing a move before its answer. With each board the server sends where each tile goes in
// each legal direction (#board's data-slides, from the engine), so a press moves the tiles at
// once and the answer brings the new tile. An answer of several moves carries each move's slide
// and new tile (data-steps), drawn one after the other. Nothing here knows the rules: it plays
// back what the server wrote, and the tiles it drew are checked against the server's board.
//
// Written form (webapp.game.board_view): entries separated by spaces, each "direction:cells:merged"
// for a slide and "direction:cells:merged:new" for a step. `cells` has one character a cell in
// reading order: the hex digit of the cell its tile goes to, "." for an empty cell; `merged` and
// `new` are "<cell hex><value>" items (merged comma-separated, possibly none).

const EMPTY = ".";

/** The slides written on `board`: direction -> slide. */
export function readSlides(board) {
  return new Map(entries(board.dataset.slides).map((slide) => [slide.direction, slide]));
}

/** The steps written on `board` (an answer of several moves), in the order they were played. */
export function readSteps(board) {
  return entries(board.dataset.steps);
}

function entries(text) {
  return (text || "").split(" ").filter(Boolean).map(parseEntry);
}

function parseEntry(entry) {
  const [direction, cells, merged, spawned] = entry.split(":");
  return {
    direction,
    destinations: [...cells].map((char) => (char === EMPTY ? null : parseInt(char, 16))),
    merged: (merged || "").split(",").filter(Boolean).map(parseTile),
    spawned: spawned ? parseTile(spawned) : null,
  };
}

function parseTile(text) {
  return { cell: parseInt(text[0], 16), value: text.slice(1) };
}

/** The tiles shown (not those leaving under a merge), by cell. */
function shownTiles(board) {
  const tiles = new Map();
  for (const tile of board.querySelectorAll(".tile:not([data-leaving])")) {
    tiles.set(Number(tile.dataset.row) * 4 + Number(tile.dataset.col), tile);
  }
  return tiles;
}

/**
 * Move the tiles shown on `board` as `slide` says: each goes to its cell, a merged pair stays
 * under the tile it made (drawn over them, popping). False, changing nothing, when the tiles
 * shown are not the ones the slide was written for.
 */
export function playSlide(board, slide) {
  const tiles = shownTiles(board);
  const occupied = slide.destinations.flatMap((to, cell) => (to === null ? [] : [cell]));
  if (occupied.length !== tiles.size || !occupied.every((cell) => tiles.has(cell))) return false;
  for (const tile of board.querySelectorAll("[data-leaving]")) tile.remove();
  const mergedAt = new Set(slide.merged.map(({ cell }) => cell));
  for (const [cell, tile] of tiles) {
    for (const name of ["new", "merged", "fromRow", "fromCol"]) delete tile.dataset[name];
    place(tile, slide.destinations[cell]);
    if (mergedAt.has(slide.destinations[cell])) tile.dataset.leaving = "";
  }
  for (const { cell, value } of slide.merged) board.append(newTile(board, cell, value, "merged"));
  return true;
}

/** Add the tile a move brought (`spawned`: its cell and value), appearing. */
export function addTile(board, { cell, value }) {
  board.append(newTile(board, cell, value, "new"));
}

function newTile(board, cell, value, flag) {
  const tile = board.ownerDocument.createElement("div");
  tile.className = "tile";
  tile.dataset.value = value;
  place(tile, cell);
  tile.dataset[flag] = "";
  tile.textContent = value;
  return tile;
}

function place(tile, cell) {
  tile.dataset.row = String(Math.floor(cell / 4));
  tile.dataset.col = String(cell % 4);
}

/**
 * Make the tiles shown the server's `incoming` board, where they already stand: each tile at a
 * cell with the value the server has there takes the server's id; a tile the server has and the
 * page does not yet is added (the new tile). False, changing nothing, when a tile shown is not
 * on the server's board, or stands where the server has another value.
 */
export function settleOnto(board, incoming) {
  const shown = shownTiles(board);
  const arriving = [];
  const kept = new Set();
  for (const next of incoming.querySelectorAll(".tile:not([data-leaving])")) {
    const cell = Number(next.dataset.row) * 4 + Number(next.dataset.col);
    const tile = shown.get(cell);
    if (tile && tile.dataset.value === next.dataset.value) {
      tile.dataset.id = next.dataset.id;
      kept.add(tile);
    } else if (tile || !next.hasAttribute("data-new")) {
      return false;
    } else {
      arriving.push(next);
    }
  }
  if (kept.size !== shown.size) return false;
  for (const tile of arriving) {
    for (const name of ["fromRow", "fromCol"]) delete tile.dataset[name];
    board.append(tile);
  }
  return true;
}
