// Playback of moves on the board: the pressed move is drawn at once from the slides the server
// sent with the board (slides.js), before its answer; an answer of several moves is drawn one
// move after the other, briefly; and every answer ends on the server's own board. When what was
// drawn is not what the server has (another tab moved, a retry), the server's board is shown.

import { addTile, playSlide, readSlides, readSteps, settleOnto } from "./slides.js";
import { removeLeavingOncePopped, syncAttributes, updateBoard } from "./view.js";

// An answer of several moves is drawn one move at a time, STEP_MS apart when few are waiting;
// when more are, the moves after the first share CATCH_UP_MS, each still given MIN_STEP_MS: its
// slide for at least one frame, then REST_MS (a frame) at rest before the next one slides, so
// no tile ever turns a corner mid-slide.
const STEP_MS = 90;
const CATCH_UP_MS = 180;
const MIN_STEP_MS = 40;
const REST_MS = 20;
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

  // How long each move of an answer of several moves is shown when `waiting` follow the first.
  function stepMs(waiting) {
    return Math.round(Math.min(STEP_MS, Math.max(MIN_STEP_MS, CATCH_UP_MS / waiting)));
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
    const pace = reducedMotion() ? 0 : stepMs(actions.length - 1);
    // The first move drawn ahead may still be sliding (a quick answer): the next waits for it.
    const aheadEndsAt = played ? played.startedAt + slideMs(board) + REST_MS : 0;
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
      if (next < actions.length && pace) {
        const wait = next === 1 ? Math.max(pace, aheadEndsAt - performance.now()) : pace;
        timer = setTimeout(run, wait);
      } else {
        finish();
      }
    };
    drawing = { finish };
    board.dataset.drawing = ""; // until the answer's board is settled (its attributes synced)
    if (pace) board.style.setProperty("--slide", `${Math.min(slideMs(board), pace - REST_MS)}ms`);
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
