// Wiring: input -> intent -> request queue -> fragment -> view. Nothing here knows the rules.

import { createAutoplay } from "./autoplay.js";
import { rememberBestScores } from "./best.js";
import { askToConfirm } from "./confirm.js";
import { listenForIntents, readControls } from "./input.js";
import { createQueue } from "./queue.js";
import { applyFragment, showMessage, shownState } from "./view.js";

const controls = readControls();
const moves = new Set(controls.directions);
const game = document.getElementById("game");

const queue = createQueue({
  moves,
  urls: {
    move: game.dataset.moveUrl,
    new: game.dataset.newUrl,
    "keep-playing": game.dataset.keepPlayingUrl,
    hint: game.dataset.hintUrl,
  },
  csrfToken: document.querySelector('meta[name="csrf-token"]').content,
  lastSeq: Number(game.dataset.seq),
  onAnswer(intent, html, ok) {
    applyFragment(html);
    rememberBestScores();
    autoplay.onAnswer(intent, shownState(), ok);
  },
  onRetrying(html) {
    showMessage(game.dataset.offlineMessage);
    if (html) applyFragment(html); // the server's own message, when it sent one
  },
});

const autoplay = createAutoplay({
  moves,
  button: document.getElementById("autoplay-button"),
  speed: document.getElementById("autoplay-speed"),
  request: queue.push,
  keys: controls.keys,
});

async function handle(intent) {
  if (intent === "autoplay") return autoplay.toggle();
  if (intent === "new") {
    autoplay.stop();
    if (shownState().inProgress && !(await askToConfirm(document.getElementById("confirm-new")))) return;
  }
  queue.push(intent);
}

rememberBestScores();
listenForIntents({ controls, surface: document.querySelector(".board-frame"), emit: handle });
