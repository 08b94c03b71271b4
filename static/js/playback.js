// Playback of moves on the board: the pressed move is drawn at once from the slides the server
// sent with the board (slides.js), before its answer; an answer of several moves is drawn one
// move after the other, briefly; and every answer ends on the server's own board. When what was
// drawn is not what the server has (another tab moved, a retry), the server's board is shown.

import { addTile, playSlide, readSlides, readSteps, settleOnto } from "./slides.js";
import { removeLeavingOncePopped, syncAttributes, updateBoard } from "./view.js";

// How long each move of an answer of several moves is shown before the next one slides.
const STEP_MS = 90;
const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

/** Playback on the page's board (`boardOf()` finds the #board element shown now). */
export function createPlayback({ boardOf, doc = document }) {
  let ahead = null; // the move drawn before its answer: { direction, startedAt, before }
  let drawing = null; // an answer of several moves being drawn: { finish }

  const reducedMotion = () => doc.defaultView.matchMedia(REDUCED_MOTION).matches;

  function slideMs(board) {
    if (reducedMotion()) return 0;
    return Number(getComputedStyle(board).getPropertyValue("--slide-ms")) || 0;
  }

  // Draw an answer of several moves to its end at once (a new press or answer does not wait).
  function finishDrawing() {
    if (drawing) drawing.finish();
  }

  // The server's board, as it is, without moving anything.
  function showServerBoard(board, incoming) {
    const tiles = [...incoming.querySelectorAll(".tile:not([data-leaving])")];
    for (const tile of tiles) {
      for (const name of ["new", "merged", "fromRow", "fromCol"]) delete tile.dataset[name];
    }
    syncAttributes(board, incoming);
    board.replaceChildren(...tiles);
  }

  // The answer's board after what was drawn: settled onto it, its new tile appearing once the
  // slide has ended (not a whole slide later, as when nothing was drawn ahead).
  function settle(board, incoming, slideEndsAt) {
    syncAttributes(board, incoming);
    const before = new Set(board.children);
    if (!settleOnto(board, incoming)) return showServerBoard(board, incoming);
    const wait = Math.max(0, slideEndsAt - performance.now());
    for (const tile of board.children) {
      if (!before.has(tile)) tile.style.animationDelay = `${Math.round(wait)}ms`;
    }
    if (board.querySelector("[data-leaving]")) removeLeavingOncePopped(board);
  }

  // Draw each step of an answer of several moves in turn (the first one's slide already drawn
  // when it was played ahead), then settle onto the answer's board.
  function drawSteps(board, incoming, steps, played) {
    if (played && steps[0].direction !== played.direction) return showServerBoard(board, incoming);
    const actions = steps.map((step, index) => () => {
      if (!(index === 0 && played) && !playSlide(board, step.slide)) return false;
      addTile(board, step.spawned);
      return true;
    });
    const pace = reducedMotion() ? 0 : STEP_MS;
    let timer = null;
    let next = 0;
    const finish = () => {
      clearTimeout(timer);
      drawing = null;
      while (next < actions.length) {
        if (!actions[next++]()) return showServerBoard(board, incoming);
      }
      settle(board, incoming, 0);
    };
    const run = () => {
      if (!actions[next++]()) return finish();
      if (next < actions.length && pace) timer = setTimeout(run, pace);
      else finish();
    };
    drawing = { finish };
    board.dataset.drawing = ""; // until the answer's board is settled (its attributes synced)
    if (pace) board.style.setProperty("--slide", `${Math.min(slideMs(board), pace - 20)}ms`);
    run();
  }

  return {
    /**
     * Draw `direction`'s slide now, before its answer, if the board shown has one: true if it
     * did. The answer then settles onto the server's board.
     */
    playAhead(direction) {
      finishDrawing();
      ahead = null;
      const board = boardOf();
      const slide = readSlides(board).get(direction);
      const before = board.cloneNode(true);
      if (!slide || !playSlide(board, slide)) return false;
      board.removeAttribute("data-slides"); // the next move's slides come with the answer
      ahead = { direction, startedAt: performance.now(), before };
      if (board.querySelector("[data-leaving]")) removeLeavingOncePopped(board);
      return true;
    },

    /** Put back the board as it was before the move drawn ahead (its request was given up). */
    takeBackAhead() {
      if (!ahead) return;
      boardOf().replaceWith(ahead.before);
      ahead = null;
    },

    /** Draw an answer's board (view.applyFragment's drawBoard). */
    drawBoard(board, incoming) {
      finishDrawing();
      const played = ahead;
      ahead = null;
      const steps = readSteps(incoming).map(({ direction, destinations, merged, spawned }) => (
        { direction, slide: { destinations, merged }, spawned }));
      incoming.removeAttribute("data-steps");
      if (steps.length) return drawSteps(board, incoming, steps, played);
      if (!played) return updateBoard(board, incoming);
      return settle(board, incoming, played.startedAt + slideMs(board));
    },
  };
}
