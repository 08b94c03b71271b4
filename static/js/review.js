// The review page: asks for the review (the player's button), then polls its progress until it
// is finished; each answer is the review's part of the page, swapped in by view.js. The live
// region says only when the review starts and ends, not every step of the progress bar.

import { applyFragment } from "./view.js";
import { sleep } from "./wait.js";

const POLL_MS = 1000;

const announcement = document.getElementById("review-announcement");
let polling = false;

const review = () => document.getElementById("review");

function show(html) {
  const before = review().dataset.announcement;
  applyFragment(html);
  const now = review().dataset.announcement;
  if (now && now !== before) announcement.textContent = now;
}

async function poll() {
  if (polling) return;
  polling = true;
  while (review().dataset.going === "true") {
    await sleep(POLL_MS);
    const response = await fetch(review().dataset.progressUrl, { cache: "no-store" }).catch(() => null);
    if (response?.ok) show(await response.text()); // otherwise (a 429, no connection) ask again
  }
  polling = false;
}

async function ask(form) {
  const button = form.querySelector("#review-ask");
  button.disabled = true;
  const response = await fetch(form.action, {
    method: "POST",
    body: new FormData(form), // the form's own CSRF token
    credentials: "same-origin",
  }).catch(() => null);
  if (response) show(await response.text());
  if (!response?.ok) button.disabled = false; // refused (429) or unreachable: it can be pressed again
  poll();
}

// The form works without script too (the server then answers with the whole page); with script
// the review's part is swapped in and its progress polled.
document.addEventListener("submit", (event) => {
  if (!(event.target instanceof HTMLFormElement) || event.target.id !== "review-form") return;
  event.preventDefault();
  ask(event.target);
});
poll();
