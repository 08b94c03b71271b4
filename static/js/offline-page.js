// The offline page: shows the last board the game had, and reloads (the page that could not be
// loaded: the service worker serves this one in its place) as soon as the server answers again.

import { showLastBoard } from "./offline.js";

const CHECK_EVERY_MS = 3000;

async function serverAnswers() {
  if (!navigator.onLine) return false;
  const probe = document.querySelector('link[rel="manifest"]').href; // small, never kept
  try {
    return (await fetch(probe, { cache: "no-store" })).ok;
  } catch {
    return false;
  }
}

async function reloadOnceBack() {
  if (await serverAnswers()) location.reload();
}

showLastBoard();
window.addEventListener("online", reloadOnceBack);
setInterval(reloadOnceBack, CHECK_EVERY_MS);
