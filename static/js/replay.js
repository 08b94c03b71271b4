// Replay viewer: steps through a game's positions, which the server renders (the browser computes
// no rule). One request at a time; presses and slider moves while one is out only change where
// to go next, so a held key or a dragged slider never queues a backlog. A step forward animates
// as in play (view.js); any other jump draws the tiles in place.

import { keysBelongTo, trackFocusOrigin } from "./input.js";
import { applyFragment } from "./view.js";
import { retryAfterMs, sleep } from "./wait.js";

const RETRY_MS = 1000;

const viewer = document.getElementById("replay");
const keys = JSON.parse(document.getElementById("replay-keys").textContent);
const slider = document.getElementById("replay-slider");
const speed = document.getElementById("replay-speed");
const playButton = document.getElementById("replay-play");
const total = Number(viewer.dataset.total);
let shown = Number(viewer.dataset.move); // the position the board shows
let wanted = shown; // the position asked for
let loading = null; // the promise of the requests in flight, while there are
let playing = false;

const clamp = (move) => Math.min(total, Math.max(0, move));

/** Go to a position; resolves once the board shows the latest position asked for. */
function go(move) {
  wanted = clamp(move);
  slider.value = String(wanted);
  loading ??= load().finally(() => { loading = null; });
  return loading;
}

async function load() {
  while (shown !== wanted) {
    const target = wanted;
    const query = new URLSearchParams({ move: String(target), from: String(shown) });
    const response = await fetch(`${viewer.dataset.positionUrl}?${query}`).catch(() => null);
    if (!response?.ok) {
      await sleep(retryAfterMs(response) || RETRY_MS); // a 429 or no connection: try again
      continue;
    }
    applyFragment(await response.text());
    shown = target;
    const url = new URL(window.location.href);
    url.searchParams.set("move", String(shown));
    window.history.replaceState(null, "", url);
  }
}

const steps = {
  first: () => 0,
  previous: () => wanted - 1,
  next: () => wanted + 1,
  last: () => total,
};

function step(name) {
  setPlaying(false);
  go(steps[name]());
}

// The button says what it does next: Play, or Pause while playing (its width never changes).
const playLabels = { false: playButton.textContent, true: playButton.dataset.pauseLabel };

function setPlaying(value) {
  playing = value;
  playButton.textContent = playLabels[value];
}

async function play() {
  if (shown === total) await go(0); // played to the end before: from the start again
  while (playing && wanted < total) {
    await go(wanted + 1);
    await sleep(1000 / Number(speed.value));
  }
  setPlaying(false);
}

playButton.addEventListener("click", () => {
  setPlaying(!playing);
  if (playing) play();
});
viewer.addEventListener("click", (event) => {
  const button = event.target instanceof Element && event.target.closest("[data-step]");
  if (button) step(button.dataset.step);
});
slider.addEventListener("input", () => {
  setPlaying(false);
  go(Number(slider.value));
});
trackFocusOrigin();
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
  if (keysBelongTo(event.target)) return;
  const name = keys[event.code || event.key];
  if (!name) return;
  event.preventDefault();
  step(name);
});
