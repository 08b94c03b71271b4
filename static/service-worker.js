// Service worker. The server puts `SHELL` in front of this file (webapp/pages/app_shell.py):
// { version, files: the static shell, offline: language -> URL of its offline page }.
//
// It keeps only the static shell and the offline pages. Shell files come from the network
// first, so they are never stale while online, and from the cache when the network fails.
// Pages, fragments and every POST always go to the server and are never kept: the rules stay
// there, and no stale board or CSRF token is ever served. A page that cannot be loaded gets the
// offline page of its language: the one its URL names, else that of the last page shown (each
// page tells its language once the worker is active: static/js/install.js).

const CACHE = `shell-${SHELL.version}`;
const SHELL_FILES = new Set(SHELL.files);
const LANGUAGES = Object.keys(SHELL.offline);
const LAST_LANGUAGE = "/last-page-language"; // a cache key, not a URL anyone fetches

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...SHELL.files, ...Object.values(SHELL.offline)]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const language = event.data && event.data.language;
  if (!LANGUAGES.includes(language)) return;
  event.waitUntil(caches.open(CACHE).then((cache) => cache.put(LAST_LANGUAGE, new Response(language))));
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request, url));
  else if (SHELL_FILES.has(url.pathname)) event.respondWith(shellFile(request));
});

async function shellFile(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw error;
  }
}

async function page(request, url) {
  try {
    return await fetch(request);
  } catch {
    const cache = await caches.open(CACHE);
    const offline = await cache.match(SHELL.offline[await offlineLanguage(cache, url)]);
    return offline || Response.error();
  }
}

async function offlineLanguage(cache, url) {
  const prefix = url.pathname.split("/")[1];
  if (LANGUAGES.includes(prefix)) return prefix;
  const last = await cache.match(LAST_LANGUAGE);
  const language = last && (await last.text());
  return LANGUAGES.includes(language) ? language : LANGUAGES[0];
}
