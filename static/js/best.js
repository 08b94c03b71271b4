// Best scores live in the browser: localStorage, mirrored in cookies so the server can render
// them in the first HTML. The server shows max(remembered, current score); this keeps both
// stores up to date and restores a value a cleared cookie lost.

const COOKIE_MAX_AGE_S = 400 * 24 * 3600;
// A whole number as the page's languages write it: digits, grouped by a comma ("14,200"), a
// no-break or narrow no-break space ("14 200"), or a plain space, or not grouped ("1420").
const WRITTEN_NUMBER = /^\d(?:[,\u00a0\u202f ]?\d)*$/;

/**
 * Remember the best scores shown on the page (or the stored ones, when higher). `kept`: the id of
 * each element showing a best -> the cookie and storage key it is kept under; `maxDigits`: the
 * most digits a kept score has (both from the page's #controls block, defined on the server).
 */
export function rememberBestScores({ kept, maxDigits }, doc = document) {
  const written = new Intl.NumberFormat(doc.documentElement.lang, { maximumFractionDigits: 0 });
  for (const [element, key] of Object.entries(kept)) {
    const shown = doc.getElementById(element);
    const shownBest = asScore(shown.textContent, maxDigits);
    const best = Math.max(shownBest, asScore(readStored(key), maxDigits));
    if (best > shownBest) shown.textContent = written.format(best);
    writeStored(key, best);
    const secure = doc.location.protocol === "https:" ? "; Secure" : "";
    doc.cookie = `${key}=${best}; path=/; max-age=${COOKIE_MAX_AGE_S}; SameSite=Lax${secure}`;
  }
}

/** A score as the page or the store writes it ("14,200", "14 200", "1420"), 0 unless it is a
 * whole number of at most `maxDigits` digits. */
function asScore(text, maxDigits) {
  const trimmed = (text || "").trim();
  const digits = trimmed.replace(/\D/g, "");
  return WRITTEN_NUMBER.test(trimmed) && digits.length <= maxDigits ? Number(digits) : 0;
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
