// @ts-check
// The service worker (docs/push.md): it keeps the client's files so that the page opens without a network
// (the page then says it is offline, and reconnects by itself when the network is back), and it shows the
// server's pushes as notifications, a click on which opens (or brings forward) the table.
//
// The server fills in FILES (every file of the client) and VERSION (a hash of them) when it serves this
// file, so that a new client makes a new worker, which caches the new files and drops the old ones.

/// <reference lib="webworker" />
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** @type {string[]} */
const FILES = /* FILES */ [];
const VERSION = /* VERSION */ 'dev';
const CACHE = `romirami-${VERSION}`;

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => worker.clients.claim()),
  );
});

/** Whether a request is for one of the client's files (not the API, the WebSocket or the metrics). */
/** @param {Request} request */
function isClientFile(request) {
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== worker.location.origin) return false;
  return !['/api/', '/ws', '/metrics', '/embed/'].some((prefix) => url.pathname.startsWith(prefix));
}

// The network first, so that an online page is always the server's latest; the cache when it cannot be
// reached. A page (any path) falls back to the cached index.html.
worker.addEventListener('fetch', (event) => {
  const request = event.request;
  if (!isClientFile(request)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(async () => {
        const cached = await caches.match(request, { ignoreSearch: true });
        if (cached) return cached;
        if (request.mode === 'navigate') {
          const page = await caches.match('/index.html');
          if (page) return page;
        }
        return Response.error();
      }),
  );
});

// A push's payload is JSON: {kind, table, game, title, body, url}.
worker.addEventListener('push', (event) => {
  /** @type {{kind?: string, table?: string, title?: string, body?: string, url?: string}} */
  let payload = {};
  try {
    payload = event.data?.json() ?? {};
  } catch {
    payload = { title: 'Romi Rami', body: event.data?.text() ?? '' };
  }
  event.waitUntil(
    worker.registration.showNotification(payload.title ?? 'Romi Rami', {
      body: payload.body ?? '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      // One notification per table: a newer one replaces the older.
      tag: payload.table ? `table-${payload.table}` : undefined,
      data: { url: payload.url ?? '/#/', kind: payload.kind },
    }),
  );
});

// A click opens the table: in a window of the site that is open already, brought forward, or a new one.
worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/#/', worker.location.origin).href;
  event.waitUntil(
    worker.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === worker.location.origin);
      if (open) {
        return open.navigate(target).then((client) => (client ?? open).focus());
      }
      return worker.clients.openWindow(target);
    }),
  );
});
