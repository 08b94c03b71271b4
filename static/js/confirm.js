// A small in-page dialog asking the player to confirm before a game in progress is replaced.

/** Resolve to true when the player confirms in `dialog` (a <dialog> with a method="dialog" form). */
export function askToConfirm(dialog) {
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "confirm"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}
