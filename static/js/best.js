// Best scores live in the browser: localStorage, mirrored in cookies so the server can render
// them in the first HTML. The server shows max(remembered, current score); this keeps both
// stores up to date and restores a value a cleared cookie lost.

const STORES = [
  { element: "best", key: "best" },
  { element: "best-unassisted", key: "best_unassisted" },
];
const MAX_DIGITS = 8;
const COOKIE_MAX_AGE_S = 400 * 24 * 3600;

/** Remember the best scores shown on the page (or the stored ones, when higher). */
export function rememberBestScores(doc = document) {
  for (const { element, key } of STORES) {
    const shown = doc.getElementById(element);
    const best = Math.max(asScore(shown.textContent), asScore(readStored(key)));
    shown.textContent = String(best);
    writeStored(key, best);
    const secure = doc.location.protocol === "https:" ? "; Secure" : "";
    doc.cookie = `${key}=${best}; path=/; max-age=${COOKIE_MAX_AGE_S}; SameSite=Lax${secure}`;
  }
}

function asScore(text) {
  const trimmed = (text || "").trim();
  return new RegExp(`^\\d{1,${MAX_DIGITS}}$`).test(trimmed) ? Number(trimmed) : 0;
}

function readStored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled: the cookie alone remembers
  }
}

function writeStored(key, value) {
  try {
    localStorage.setItem(key, String(value));
  } catch {
    // storage disabled or full: the cookie alone remembers
  }
}
