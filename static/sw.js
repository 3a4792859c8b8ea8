// The service worker of the installable app (issue 31.5), served at /sw.js (scope: the whole site)
// by app/routers/pwa.py, which writes this build's fingerprint and app shell below.
// - install: the app shell (scripts, stylesheets, fonts, icons, the offline page) into a cache
//   named after the build; activate: older builds' caches deleted.
// - pages: the network first; when the server cannot be reached, the offline page (English and
//   Japanese). Fingerprinted assets (/static/v/<build>/...): from the cache, else the network.
//   The API, sockets and streams are never touched.
// - push: the notification the server sent (app/push/texts.py); a click opens its table, or
//   focuses a window already showing it.
const BUILD = "__BUILD__";
const SHELL = JSON.parse("__SHELL__");
const OFFLINE = "/static/offline.html";
const CACHE = `asobiba-${BUILD}`;
const ICON = "/static/img/icon-192.png";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith("asobiba-") && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE).then((page) => page || Response.error())));
    return;
  }
  if (url.pathname.startsWith("/static/v/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  }
});

/** Only a table's address (or the landing) is ever opened from a notification. */
function safePath(url) {
  return typeof url === "string" && /^\/r\/[A-Za-z0-9_-]{1,64}$/.test(url) ? url : "/";
}

self.addEventListener("push", (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = data.title || "Asobiba 遊び場";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      tag: data.tag || undefined,
      lang: data.lang || "en",
      icon: ICON,
      badge: ICON,
      data: { url: safePath(data.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(safePath(event.notification.data && event.notification.data.url), self.location.origin).href;
  event.waitUntil(openTable(target));
});

/** Focus a window that shows the table already; else open one; else (a browser that refuses a new
 * window) take one of the site's own windows there. */
async function openTable(target) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const showing = windows.find((client) => client.url === target);
  if (showing) return showing.focus().catch(() => showing);
  const opened = await self.clients.openWindow(target).catch(() => null);
  if (opened) return opened;
  const ours = windows.find((client) => new URL(client.url).origin === self.location.origin && "navigate" in client);
  if (!ours) return null;
  const moved = await ours.navigate(target).catch(() => null);
  return moved && moved.focus().catch(() => moved);
}
