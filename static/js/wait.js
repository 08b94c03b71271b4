// Waiting between tries: the one pause helper, and how long a refused or failed answer asks the
// page to wait (its Retry-After, in ms; 0 when it names none).

/** Resolves after `ms` milliseconds. */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answer's Retry-After in milliseconds, or 0 (no answer, no header, or not a number). */
export function retryAfterMs(response) {
  return Math.max(0, Number(response?.headers.get("Retry-After")) * 1000 || 0);
}
