// Offline: the page never plays without the server. While the connection is down it says so over
// the board and sends nothing; the board it shows is kept (localStorage) for the offline page the
// service worker serves when a page cannot be loaded at all.

const KEPT_BOARD = "last-board";
const KEPT_PARTS = ["scores", "board", "status"];

/** Keep the scores, board and banner the page shows now, for the offline page. */
export function keepLastBoard(doc = document) {
  const parts = KEPT_PARTS.map((id) => doc.getElementById(id).cloneNode(true));
  for (const part of parts) for (const tile of part.querySelectorAll("[data-leaving]")) tile.remove();
  try {
    localStorage.setItem(KEPT_BOARD, parts.map((part) => part.outerHTML).join(""));
  } catch {
    // storage disabled or full: the offline page then shows an empty board
  }
}

/** Put the kept scores, board and banner in place of the offline page's empty ones. */
export function showLastBoard(doc = document) {
  let kept = null;
  try {
    kept = localStorage.getItem(KEPT_BOARD);
  } catch {
    return;
  }
  const template = doc.createElement("template");
  template.innerHTML = kept || "";
  for (const part of [...template.content.children]) {
    if (KEPT_PARTS.includes(part.id)) doc.getElementById(part.id)?.replaceWith(part);
  }
}

/** Show `notice` while the browser is offline; isOffline() tells the page to send nothing. */
export function watchConnection(notice, win = window) {
  const update = () => { notice.hidden = win.navigator.onLine; };
  win.addEventListener("online", update);
  win.addEventListener("offline", update);
  update();
  return { isOffline: () => !win.navigator.onLine };
}
