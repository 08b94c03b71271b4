// Input: turns key presses, swipes and button clicks into intents ("up", "new", "hint", ...).
// The bindings come from the page's #controls data block, defined once on the server. Keys are
// matched by KeyboardEvent.code, the physical key: Caps Lock, the layout and an input method
// change nothing. A held key repeats a numbered intent (a move, an undo) like separate presses;
// other intents fire once.

// Where keys are never the game's: text being typed, and an open dialog.
const KEEPS_KEYS = "textarea, select, [contenteditable], input:not([type=range]), dialog";
// A slider takes the arrow keys when the keyboard brought focus to it (Tab); once a pointer has
// used it, the arrows move the tiles again.
const SLIDERS = "input[type=range]";

/** Read the key and gesture bindings the server rendered into the page. */
export function readControls(doc = document) {
  return JSON.parse(doc.getElementById("controls").textContent);
}

/** Call emit(intent) for every bound key, swipe on `surface`, and click on a [data-intent]. */
export function listenForIntents({ controls, surface, emit }) {
  document.addEventListener("keydown", (event) => {
    if (keysBelongTo(event.target)) return;
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
 * Note how the focused element got its focus: `data-pointer-focus` on <html> while a pointer (a
 * mouse, a finger) was the last input before it, also when the page moved focus itself after a
 * swipe or a click. The stylesheet then shows no focus ring; keyboard focus keeps its ring.
 */
export function trackFocusOrigin(doc = document) {
  let pointerLast = false;
  const mark = () => doc.documentElement.toggleAttribute("data-pointer-focus", pointerLast);
  doc.addEventListener("pointerdown", (event) => {
    pointerLast = true;
    if (doc.activeElement?.contains(event.target)) mark(); // used where it already had focus
  }, true);
  doc.addEventListener("keydown", () => { pointerLast = false; }, true);
  doc.addEventListener("focusin", mark, true);
}

/** Whether a key pressed on `target` is that element's own, not a game key. */
export function keysBelongTo(target, doc = document) {
  if (!(target instanceof Element)) return false;
  if (target.closest(KEEPS_KEYS)) return true;
  return Boolean(target.closest(SLIDERS)) && !doc.documentElement.hasAttribute("data-pointer-focus");
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
    if (!event.isPrimary || event.target.closest("button, a")) return; // a control, not a swipe
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
