// Input: turns key presses, swipes and button clicks into intents ("up", "new", "hint", ...).
// The bindings come from the page's #controls data block, defined once on the server. Keys are
// matched by KeyboardEvent.code, the physical key: Caps Lock, the layout and an input method
// change nothing. A held key repeats a numbered intent (a move, an undo) like separate presses;
// other intents fire once.

const FORM_FIELDS = "input, textarea, select, [contenteditable], dialog";

/** Read the key and gesture bindings the server rendered into the page. */
export function readControls(doc = document) {
  return JSON.parse(doc.getElementById("controls").textContent);
}

/** Call emit(intent) for every bound key, swipe on `surface`, and click on a [data-intent]. */
export function listenForIntents({ controls, surface, emit }) {
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof Element && event.target.closest(FORM_FIELDS)) return;
    const intent = boundIntent(event, controls);
    if (!intent) return;
    event.preventDefault();
    if (event.repeat && !controls.numbered.includes(intent)) return;
    emit(intent);
  });
  document.addEventListener("click", (event) => {
    const control = event.target instanceof Element && event.target.closest("[data-intent]");
    if (control) emit(control.dataset.intent);
  });
  listenForSwipes(surface, controls, emit);
}

/**
 * The intent a key press is bound to, or null. Keys with Alt or Meta are the browser's, and so is
 * every Ctrl chord but the ones bound with the Ctrl prefix (Ctrl+Z).
 */
export function boundIntent(event, controls) {
  if (event.altKey || event.metaKey) return null;
  const code = event.code || event.key; // some virtual keyboards leave code empty
  if (event.ctrlKey) return (!event.shiftKey && controls.keys[controls.ctrlPrefix + code]) || null;
  const shifted = event.shiftKey && controls.keys[controls.shiftPrefix + code];
  return shifted || controls.keys[code] || null;
}

function listenForSwipes(surface, controls, emit) {
  let start = null;
  surface.addEventListener("pointerdown", (event) => {
    if (!event.isPrimary || event.target.closest("button")) return;
    start = { x: event.clientX, y: event.clientY };
    surface.setPointerCapture(event.pointerId);
  });
  surface.addEventListener("pointerup", (event) => {
    if (!start) return;
    const gesture = swipeGesture(event.clientX - start.x, event.clientY - start.y,
      controls.swipeMinDistance);
    start = null;
    if (gesture && controls.gestures[gesture]) emit(controls.gestures[gesture]);
  });
  surface.addEventListener("pointercancel", () => { start = null; });
  // Keep the page still under a finger: no scrolling, pull-to-refresh or back gesture.
  surface.addEventListener("touchmove", (event) => event.preventDefault(), { passive: false });
}

function swipeGesture(dx, dy, minDistance) {
  if (Math.max(Math.abs(dx), Math.abs(dy)) < minDistance) return null;
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? "swipe-right" : "swipe-left";
  return dy > 0 ? "swipe-down" : "swipe-up";
}
