// The installable app: once the page has loaded, register the service worker, which keeps the
// static shell and the offline pages (see static/service-worker.js), and tell it this page's
// language, for the offline page it shows should a page fail to load.

const worker = document.querySelector('meta[name="service-worker"]')?.content;

if (worker && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    // Without a worker (private mode, an old browser) the game works the same, only not offline.
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(() => {});
  });
  navigator.serviceWorker.ready.then((registration) => {
    registration.active.postMessage({ language: document.documentElement.lang });
  });
}
