// Auto-play: asks the server to play the solver's move ("solver-move", one request a move)
// through the same queue as a person's presses, at the speed the player sets, counted from one
// request to the next (the time an answer takes is part of the pause, not added to it). It
// stops at the win banner, at game over, and at any key press or tap on the page (a game key
// that stops it does nothing else; a key held since before it started does not stop it, nor
// does a modifier alone, so Shift+A stops it rather than stopping it and starting it again);
// its own button and the speed slider keep their usual roles. While it runs its button says
// Stop; the speed the player chose is kept in the browser for the next page.

import { boundIntent } from "./input.js";

const ACTIVATION_KEYS = ["Enter", " "];
const MODIFIER_KEYS = ["Shift", "Control", "Alt", "Meta"];
const SOLVER_MOVE = "solver-move";
const KEPT_SPEED = "autoplay-speed";

/**
 * request(intent) queues an intent; controls are the page's bindings; onAnswer must be given
 * every answer the page applies, with where the game it shows stands ({status, inProgress}).
 */
export function createAutoplay({ button, speed, request, controls }) {
  let running = false;
  let timer = null;
  let askedAt = 0;

  function askForMove() {
    askedAt = performance.now();
    request(SOLVER_MOVE);
  }

  function setRunning(value) {
    running = value;
    button.setAttribute("aria-pressed", String(value));
    button.textContent = value ? button.dataset.runningLabel : button.dataset.label;
    if (!value) clearTimeout(timer);
  }

  keepSpeed(speed);

  window.addEventListener("keydown", (event) => {
    const togglesButton = event.target === button && ACTIVATION_KEYS.includes(event.key);
    if (!running || event.repeat || MODIFIER_KEYS.includes(event.key)) return;
    if (event.target === speed || togglesButton) return;
    setRunning(false);
    if (boundIntent(event, controls)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, { capture: true });
  window.addEventListener("pointerdown", (event) => {
    if (running && !button.contains(event.target) && !speed.contains(event.target)) setRunning(false);
  }, { capture: true });

  return {
    toggle() {
      setRunning(!running);
      if (running) askForMove();
    },
    stop() {
      setRunning(false);
    },
    onAnswer(intent, shown, ok) {
      if (!running) return;
      if (!ok || shown.status !== "playing") return setRunning(false);
      if (intent !== SOLVER_MOVE) return;
      const pause = 1000 / Number(speed.value) - (performance.now() - askedAt);
      timer = setTimeout(askForMove, Math.max(0, pause));
    },
  };
}

// The slider starts where the player left it (the browser keeps it), within its range.
function keepSpeed(speed) {
  try {
    const kept = Number(localStorage.getItem(KEPT_SPEED));
    if (kept >= Number(speed.min) && kept <= Number(speed.max)) speed.value = String(kept);
    speed.addEventListener("change", () => localStorage.setItem(KEPT_SPEED, speed.value));
  } catch {
    // storage disabled: the slider starts at its usual speed
  }
}
