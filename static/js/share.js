// The end-of-game Share button: the Web Share API where the browser has it, else the
// clipboard. The text and the replay link come from the server, in the player's language;
// the banner is swapped in with each answer, so the click is caught on the document.

async function share(button) {
  const { shareText: text, shareUrl: url } = button.dataset;
  const status = button.parentElement.querySelector("[data-share-status]");
  if (navigator.share) {
    try {
      await navigator.share({ text, url });
      return;
    } catch (error) {
      if (error.name === "AbortError") return; // the player closed the share sheet
    }
  }
  try {
    await navigator.clipboard.writeText(`${text} ${url}`);
    status.textContent = button.dataset.copied;
  } catch {
    status.textContent = button.dataset.notCopied;
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-share]");
  if (button) share(button);
});
