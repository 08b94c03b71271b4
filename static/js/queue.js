// Request queue: one request in flight, the rest wait their turn, so every press counts in order.
// Each move carries a sequence number; the server ignores a number it has already applied, which
// makes retrying a request whose answer got lost safe.

const RETRY_DELAYS_MS = [250, 1000, 2000, 4000];

/**
 * moves: the intents that are moves (they go to urls.move with a sequence number);
 * urls: {move, new, keep-playing, hint}; onAnswer(intent, html, ok) gets each answer in order;
 * onRetrying(html) is called each time the server is unreachable (html: null) or failing
 * (html: its answer, which may carry a message), before the same request is sent again.
 */
export function createQueue({ moves, urls, csrfToken, lastSeq, onAnswer, onRetrying }) {
  const waiting = [];
  let sending = false;

  async function drain() {
    if (sending) return;
    sending = true;
    while (waiting.length) {
      const intent = waiting.shift();
      const body = new URLSearchParams();
      if (moves.has(intent)) {
        body.set("direction", intent);
        body.set("seq", String(lastSeq + 1));
      }
      const url = moves.has(intent) ? urls.move : urls[intent];
      const response = await postUntilAnswered(url, body, csrfToken, onRetrying);
      lastSeq = Math.max(lastSeq, Number(response.headers.get("X-Seq")) || 0);
      onAnswer(intent, await response.text(), response.ok);
    }
    sending = false;
  }

  return {
    /** Queue an intent; it is sent once everything queued before it has been answered. */
    push(intent) {
      waiting.push(intent);
      drain();
    },
  };
}

// A lost connection or a server error is retried, with the same body (so the same sequence
// number), until an answer comes; a refusal (4xx) is an answer like any other.
async function postUntilAnswered(url, body, csrfToken, onRetrying) {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(url, {
      method: "POST",
      body,
      headers: { "X-CSRFToken": csrfToken },
      credentials: "same-origin",
    }).catch(() => null);
    if (response && response.status < 500) return response;
    onRetrying(response && (await response.text()));
    await new Promise((resolve) => setTimeout(resolve, retryDelay(response, attempt)));
  }
}

function retryDelay(response, attempt) {
  const retryAfter = Number(response?.headers.get("Retry-After"));
  if (retryAfter > 0) return retryAfter * 1000;
  return RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
}
