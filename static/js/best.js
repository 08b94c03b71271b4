// Best scores live in the browser: localStorage, mirrored in cookies so the server can render
// them in the first HTML. The server shows max(remembered, current score); this keeps both
// stores up to date and restores a value a cleared cookie lost.

const COOKIE_MAX_AGE_S = 400 * 24 * 3600;

/**
 * Remember the best scores shown on the page (or the stored ones, when higher). `kept`: the id of
 * each element showing a best -> the cookie and storage key it is kept under; `maxDigits`: the
 * most digits a kept score has (both from the page's #controls block, defined on the server).
 */
export function rememberBestScores({ kept, maxDigits }, doc = document) {
  for (const [element, key] of Object.entries(kept)) {
    const shown = doc.getElementById(element);
    const best = Math.max(asScore(shown.textContent, maxDigits), asScore(readStored(key), maxDigits));
    shown.textContent = String(best);
    writeStored(key, best);
    const secure = doc.location.protocol === "https:" ? "; Secure" : "";
    doc.cookie = `${key}=${best}; path=/; max-age=${COOKIE_MAX_AGE_S}; SameSite=Lax${secure}`;
  }
}

function asScore(text, maxDigits) {
  const trimmed = (text || "").trim();
  return new RegExp(`^\\d{1,${maxDigits}}$`).test(trimmed) ? Number(trimmed) : 0;
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
