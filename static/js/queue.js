// Request queue: one request in flight, the rest wait their turn, so every press counts in order.
// Moves pressed while a request is in flight go together in the next one (up to maxMoves, in
// the order pressed), so quick presses cost one more round trip, not one each. Each request
// names the game the page shows; each numbered intent (a move, an undo) carries the next move
// number (a request of several moves, the first one's), and the server applies a move only
// under the next number. A request sent again after a lost connection or a server error says
// so (retry=1): its numbers may have been used by its own first try, which the server then
// skips. On a first try a used number means the game moved on elsewhere (another tab): the
// server refuses the presses (409) and shows where the game stands, and the presses waiting
// behind them, made on the same old board, are dropped too.
// Answers say which game the page shows now and its last move number (X-Game, X-Seq): the page
// counts on from the server's, even when it is lower than the page's (the server lost moves it
// had answered, say in a failover of its store): the answer then says so (`behind`). They also say where that game stands (X-Status: playing, won or
// over; X-In-Progress: whether a new game would throw moves away), which the page keeps.

import { retryAfterMs, sleep } from "./wait.js";

const RETRY_DELAYS_MS = [250, 1000, 2000, 4000];
// Server errors (5xx) one request may meet before the page gives up on it: about 8 s of them.
const SERVER_ERROR_TRIES = 5;

/**
 * moves: the intents that are moves (they go to urls.move as its directions); numbered: the
 * intents that carry the next move number (the moves and undo); maxMoves: the most moves one
 * request carries;
 * urls: intent -> URL (webapp.game.intents.ENDPOINTS, and "state"); game, lastSeq, csrfToken:
 * where the page starts. The intent "state" asks for the current state of the game shown.
 * onSend(intents) is called as a request first goes (the page may draw its first move ahead).
 * onAnswer(intent, html, ok, shown, behind) gets each answer in order (for several moves, the
 * last one's intent; "state" when the page was reset to the server's current game), with where
 * the game it shows stands ({status, inProgress}; null when the answer does not say, as a
 * refusal does not), and whether it carries the page's game at an older move number than the
 * page showed;
 * onRetrying(html) is called each time the server is unreachable (html: null) or failing (html:
 * its answer, which may carry a message), before the same request goes again. A 429 is not an answer: the same
 * request goes again after Retry-After (with half its moves, the rest waiting for the next).
 * After SERVER_ERROR_TRIES server errors the request and those waiting behind it are dropped
 * (they were pressed on a board the server never confirmed) and onGaveUp() is called; the next
 * press starts afresh.
 */
export function createQueue({
  moves, numbered, maxMoves, urls, game, lastSeq, csrfToken, onSend, onAnswer, onRetrying, onGaveUp,
}) {
  const page = { game, lastSeq, csrfToken };
  const waiting = [];
  let sending = false;
  let wanted = null; // where another tab said the game is, for a "state" waiting to be sent

  // The next request's intents: the first waiting one, and the moves right behind a move.
  function takeNext() {
    const taken = [waiting.shift()];
    while (moves.has(taken[0]) && taken.length < maxMoves && moves.has(waiting[0])) {
      taken.push(waiting.shift());
    }
    return taken;
  }

  function formFor(intents, retry) {
    const body = new URLSearchParams({ game: page.game });
    for (const intent of intents) if (moves.has(intent)) body.append("direction", intent);
    if (numbered.has(intents[0])) body.set("seq", String(page.lastSeq + 1));
    if (retry) body.set("retry", "1");
    return body;
  }

  // Take the answer's game and move number; true if it is the same game, further back.
  function follow(response) {
    const game = response.headers.get("X-Game") || page.game;
    const seq = response.headers.get("X-Seq");
    const behind = game === page.game && seq !== null && Number(seq) < page.lastSeq;
    page.game = game;
    if (seq !== null) page.lastSeq = Number(seq);
    return behind;
  }

  function giveUp() {
    waiting.length = 0;
    onGaveUp();
  }

  // The server no longer knows the page's game or token: take its current state and go on.
  async function refresh() {
    const url = `${urls.state}?${new URLSearchParams({ game: page.game })}`;
    const response = await untilAnswered(
      () => fetch(url, { credentials: "same-origin", cache: "no-store" }), onRetrying);
    if (!response) return giveUp();
    page.csrfToken = response.headers.get("X-CSRF-Token") || page.csrfToken;
    const behind = follow(response);
    onAnswer("state", await response.text(), response.ok, shownBy(response), behind);
  }

  // A refused request (429) played nothing: the second half of its moves waits for the next
  // one, so no request carries more moves than the budget allows at a time.
  function halve(intents) {
    const kept = Math.ceil(intents.length / 2);
    waiting.unshift(...intents.slice(kept));
    return intents.slice(0, kept);
  }

  // The presses made on a board the server has moved on from: dropped with the first of them.
  function dropNumbered() {
    const kept = waiting.filter((intent) => !numbered.has(intent));
    waiting.splice(0, waiting.length, ...kept);
  }

  // Whether the page already shows the game where another tab said it is (an answer since).
  function caughtUp() {
    return wanted !== null && wanted.game === page.game && page.lastSeq >= wanted.seq;
  }

  async function send(intents) {
    if (intents[0] === "state") return caughtUp() ? undefined : refresh();
    const url = moves.has(intents[0]) ? urls.move : urls[intents[0]];
    onSend(intents);
    const response = await untilAnswered((retry) => fetch(url, {
      method: "POST",
      body: formFor(intents, retry),
      headers: { "X-CSRFToken": page.csrfToken },
      credentials: "same-origin",
    }), onRetrying, () => { intents = halve(intents); });
    if (!response) return giveUp();
    if (response.headers.has("X-Stale")) return refresh();
    if (response.status === 409) dropNumbered();
    const behind = follow(response);
    const intent = intents[intents.length - 1];
    onAnswer(intent, await response.text(), response.ok, shownBy(response), behind);
  }

  async function drain() {
    if (sending) return;
    sending = true;
    try {
      while (waiting.length) {
        try {
          await send(takeNext());
        } catch (error) {
          reportError(error); // a fault in handling one answer never stops the presses after it
        }
      }
    } finally {
      sending = false;
    }
  }

  return {
    /** Queue an intent; it is sent once everything queued before it has been answered. */
    push(intent) {
      waiting.push(intent);
      drain();
    },
    /**
     * Fetch the current state of the game shown, after what is queued (once); `seen`: where
     * another tab said the game is ({game, seq}), so no answer before then brought it already.
     */
    refresh(seen = null) {
      wanted = seen;
      if (!waiting.includes("state")) this.push("state");
    },
    /** The game the page shows and its last move number, as the last answer said. */
    position() {
      return { game: page.game, seq: page.lastSeq };
    },
  };
}

// Where the game an answer shows stands, when the answer says.
function shownBy(response) {
  const status = response.headers.get("X-Status");
  if (status === null) return null;
  return { status, inProgress: response.headers.get("X-In-Progress") === "true" };
}

// Send until an answer comes: a lost connection or a server error is retried with backoff (or
// after the server's Retry-After, if longer), send(true) from then on (it may have landed); a 429
// after its Retry-After (onRefused() first; it played nothing); any other status is an answer.
// null after SERVER_ERROR_TRIES server errors.
async function untilAnswered(send, onRetrying, onRefused = () => {}) {
  let mayHaveLanded = false;
  for (let attempt = 0, serverErrors = 0; ; attempt += 1) {
    const response = await send(mayHaveLanded).catch(() => null);
    mayHaveLanded ||= !response || response.status >= 500;
    if (response && response.status < 500 && response.status !== 429) return response;
    if (response?.status >= 500 && (serverErrors += 1) >= SERVER_ERROR_TRIES) return null;
    if (response?.status === 429) onRefused();
    else onRetrying(response && (await response.text()));
    await sleep(retryDelay(response, attempt));
  }
}

function retryDelay(response, attempt) {
  const retryAfter = retryAfterMs(response);
  if (response?.status === 429 && retryAfter > 0) return retryAfter;
  return Math.max(retryAfter, RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]);
}
