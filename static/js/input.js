// Input: turns key presses, swipes and button clicks into intents ("up", "new", "hint", ...).
// The bindings come from the page's #controls data block, defined once on the server.

const FORM_FIELDS = "input, textarea, select, [contenteditable], dialog";

/** Read the key and gesture bindings the server rendered into the page. */
export function readControls(doc = document) {
  return JSON.parse(doc.getElementById("controls").textContent);
}

/** Call emit(intent) for every bound key, swipe on `surface`, and click on a [data-intent]. */
export function listenForIntents({ controls, surface, emit }) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    if (event.target instanceof Element && event.target.closest(FORM_FIELDS)) return;
    const intent = controls.keys[event.key];
    if (!intent) return;
    event.preventDefault();
    emit(intent);
  });
  document.addEventListener("click", (event) => {
    const control = event.target instanceof Element && event.target.closest("[data-intent]");
    if (control) emit(control.dataset.intent);
  });
  listenForSwipes(surface, controls, emit);
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
