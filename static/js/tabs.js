// Tabs of one browser share its games. After each answer a tab tells the others which game it
// shows and its last move number (a BroadcastChannel); a tab showing that game at an earlier
// number, or the game that one replaced, then asks for the current state before its next press.
// A page brought back from the browser's back-forward cache asks too: it may have missed them.

const CHANNEL = "2048-game";

/**
 * shows() gives {game, seq} as this tab shows it; onMovedOn(seen) is called when another tab
 * moved that game on (seen: {game, seq} as that tab said) or replaced it (seen: null).
 * tell({game, seq}) tells the other tabs after each answer.
 */
export function watchOtherTabs({ shows, onMovedOn, win = window }) {
  const channel = "BroadcastChannel" in win ? new win.BroadcastChannel(CHANNEL) : null;
  let told = shows();
  channel?.addEventListener("message", ({ data }) => {
    const mine = shows();
    const { game, seq, replaced } = data;
    if (game === mine.game && seq > mine.seq) onMovedOn({ game, seq });
    else if (replaced === mine.game && game !== mine.game) onMovedOn(null);
  });
  win.addEventListener("pageshow", (event) => {
    if (event.persisted) onMovedOn(null);
  });
  return {
    tell({ game, seq }) {
      const replaced = told.game !== game ? told.game : null;
      if (game === told.game && seq === told.seq) return;
      told = { game, seq };
      channel?.postMessage({ game, seq, replaced });
    },
  };
}
