// View: swaps a server-rendered fragment into the page. Every top-level element of the fragment
// replaces the content of the page element with the same id; the board is merged tile by tile
// (keyed by data-id) so tiles slide, merged tiles pop over the two tiles they were made of.

/**
 * Apply one fragment from the server to the page; `drawBoard(board, incoming)` draws its board
 * (by default merged tile by tile, by id).
 */
export function applyFragment(html, { drawBoard = updateBoard } = {}, doc = document) {
  const template = doc.createElement("template");
  template.innerHTML = html;
  for (const incoming of [...template.content.children]) {
    const current = doc.getElementById(incoming.id);
    if (!current) continue;
    if (incoming.id === "board") {
      drawBoard(current, incoming);
    } else {
      syncAttributes(current, incoming);
      current.replaceChildren(...incoming.childNodes);
    }
  }
  focusOverlay(doc);
}

/** Show a message written on the page in advance (e.g. when the server is unreachable). */
export function showMessage(text, doc = document) {
  doc.getElementById("message").textContent = text;
}

/** Draw `incoming` on `board`: tiles keyed by id slide from their cell to the new one. */
export function updateBoard(board, incoming) {
  removeLeaving(board);
  syncAttributes(board, incoming);
  const shown = new Map([...board.querySelectorAll(".tile")].map((tile) => [tile.dataset.id, tile]));
  const kept = new Set();
  const arriving = [];
  for (const next of [...incoming.children]) {
    let tile = shown.get(next.dataset.id);
    if (tile) {
      syncAttributes(tile, next);
      tile.textContent = next.textContent;
    } else {
      tile = next;
      if (tile.dataset.fromRow !== undefined) {
        arriving.push([tile, tile.dataset.row, tile.dataset.col]);
        tile.dataset.row = tile.dataset.fromRow;
        tile.dataset.col = tile.dataset.fromCol;
      }
      board.append(tile);
    }
    kept.add(tile);
  }
  for (const tile of shown.values()) if (!kept.has(tile)) tile.remove();
  if (arriving.length) {
    board.getBoundingClientRect(); // draw them at the previous cell first, then move
    for (const [tile, row, col] of arriving) Object.assign(tile.dataset, { row, col });
  }
  if (board.querySelector("[data-leaving]")) removeLeavingOncePopped(board);
}

// The two tiles of a merge stay under the tile they made until it has popped to full size, so
// the cell is never empty for a frame (with reduced motion nothing pops: they go at once).
export function removeLeavingOncePopped(board) {
  const pops = [...board.querySelectorAll("[data-merged]")].flatMap((tile) => tile.getAnimations());
  const leaving = [...board.querySelectorAll("[data-leaving]")];
  Promise.allSettled(pops.map((pop) => pop.finished)).then(() => {
    for (const tile of leaving) tile.remove();
  });
}

function removeLeaving(board) {
  for (const tile of board.querySelectorAll("[data-leaving]")) tile.remove();
}

/** Give `current` the attributes of `incoming`, changing only those that differ. */
export function syncAttributes(current, incoming) {
  for (const { name } of [...current.attributes]) {
    if (!incoming.hasAttribute(name)) current.removeAttribute(name);
  }
  for (const { name, value } of incoming.attributes) {
    if (current.getAttribute(name) !== value) current.setAttribute(name, value);
  }
}

// A banner that comes up takes the focus on its main action (data-focus): keep playing after a
// win, play again after the end, so Enter does what a player most likely wants.
function focusOverlay(doc) {
  const action = doc.querySelector("#status [data-focus]") || doc.querySelector("#status button");
  if (action && !doc.getElementById("status").contains(doc.activeElement)) action.focus();
}
