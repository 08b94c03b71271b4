// Wiring: input -> intent -> request queue -> fragment -> view. Nothing here knows the rules.

import { createAutoplay } from "./autoplay.js";
import { rememberBestScores } from "./best.js";
import { askToConfirm } from "./confirm.js";
import { listenForIntents, readControls, trackFocusOrigin } from "./input.js";
import { keepLastBoard, watchConnection } from "./offline.js";
import { createPlayback } from "./playback.js";
import { createQueue } from "./queue.js";
import { watchOtherTabs } from "./tabs.js";
import { applyFragment, showMessage } from "./view.js";

const controls = readControls();
const moves = new Set(controls.directions);
const numbered = new Set(controls.numbered);
const game = document.getElementById("game");
const connection = watchConnection(document.getElementById("offline-notice"));
// Where the game shown stands, as the page was drawn and then as each answer says.
let shown = { status: game.dataset.state, inProgress: game.dataset.inProgress === "true" };
const playback = createPlayback({ boardOf: () => document.getElementById("board") });

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
  onSend(intents) {
    if (moves.has(intents[0])) playback.playAhead(intents[0]);
  },
  onAnswer(intent, html, ok, answered, behind) {
    applyFragment(html, { drawBoard: playback.drawBoard });
    if (behind) showMessage(game.dataset.behindMessage); // never a silent jump back
    shown = answered || shown;
    otherTabs.tell(queue.position());
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
    playback.takeBackAhead();
    showMessage(game.dataset.gaveUpMessage);
  },
});

// Another tab of this browser moved this game on, or replaced it: show where it stands now.
const otherTabs = watchOtherTabs({
  shows: () => queue.position(),
  onMovedOn: (seen) => queue.refresh(seen),
});

async function handle(intent) {
  if (connection.isOffline()) return; // nothing is played without the server
  if (moves.has(intent) && shown.status !== "playing") return; // the server would refuse it
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
