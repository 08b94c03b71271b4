// Wiring: input -> intent -> request queue -> fragment -> view. Nothing here knows the rules.

import { createAutoplay } from "./autoplay.js";
import { rememberBestScores } from "./best.js";
import { askToConfirm } from "./confirm.js";
import { listenForIntents, readControls, trackFocusOrigin } from "./input.js";
import { keepLastBoard, watchConnection } from "./offline.js";
import { createQueue } from "./queue.js";
import { applyFragment, showMessage } from "./view.js";

const controls = readControls();
const moves = new Set(controls.directions);
const numbered = new Set(controls.numbered);
const game = document.getElementById("game");
const connection = watchConnection(document.getElementById("offline-notice"));
// Where the game shown stands, as the page was drawn and then as each answer says.
let shown = { status: game.dataset.state, inProgress: game.dataset.inProgress === "true" };

const autoplay = createAutoplay({
  button: document.getElementById("autoplay-button"),
  speed: document.getElementById("autoplay-speed"),
  request: (intent) => queue.push(intent),
  controls,
});

const queue = createQueue({
  moves,
  numbered,
  maxMoves: controls.maxMoves,
  urls: JSON.parse(document.getElementById("request-urls").textContent),
  game: game.dataset.game,
  lastSeq: Number(game.dataset.seq),
  csrfToken: document.querySelector('meta[name="csrf-token"]').content,
  onAnswer(intent, html, ok, answered, behind) {
    applyFragment(html);
    if (behind) showMessage(game.dataset.behindMessage); // never a silent jump back
    shown = answered || shown;
    rememberBestScores(controls.bestScores);
    keepLastBoard();
    if (intent === "state") autoplay.stop();
    autoplay.onAnswer(intent, shown, ok);
  },
  onRetrying(html) {
    showMessage(game.dataset.offlineMessage);
    if (html) applyFragment(html); // the server's own message, when it sent one
  },
  onGaveUp() {
    autoplay.stop();
    showMessage(game.dataset.gaveUpMessage);
  },
});

async function handle(intent) {
  if (connection.isOffline()) return; // nothing is played without the server
  if (intent === "autoplay") return autoplay.toggle();
  if (intent === "new") {
    autoplay.stop();
    if (shown.inProgress && !(await askToConfirm(document.getElementById("confirm-new")))) return;
  }
  queue.push(intent);
}

rememberBestScores(controls.bestScores);
keepLastBoard();
trackFocusOrigin();
listenForIntents({ controls, surface: document.querySelector(".board-frame"), emit: handle });
