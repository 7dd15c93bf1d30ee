// The service worker (served as /sw.js): shows each web push as a notification and, on a
// click, focuses a tab of the site on the push's page or opens one; keeps the app's badge
// (the games waiting for the player's move) when a push arrives; and shows the offline page
// when a page cannot be loaded. The DOM library's types are the project's; the few
// service-worker ones it uses are written here.

import { type Badging, shownOf, showTurnBadge } from './pushdata';

interface Extendable extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushLike extends Extendable {
  data: { json(): unknown } | null;
}
interface ClickLike extends Extendable {
  notification: Notification;
}
interface FetchLike extends Event {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WindowLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface Worker {
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowLike[]>;
    openWindow(url: string): Promise<unknown>;
    claim(): Promise<void>;
  };
  location: Location;
  navigator: Badging;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: Extendable) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchLike) => void): void;
  addEventListener(type: 'push', listener: (event: PushLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: ClickLike) => void): void;
}

/** The offline page's path (hashed: each version has its own), set by build.mjs. */
declare const OFFLINE_PAGE: string;
/** The offline page and the files it draws with, set by build.mjs. */
declare const OFFLINE_FILES: readonly string[];

const worker = self as unknown as Worker;
/** The cache of this version's offline page: named by the page, so a new one starts afresh. */
const CACHE = `swapboard ${OFFLINE_PAGE}`;

worker.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    await (await caches.open(CACHE)).addAll([...OFFLINE_FILES]);
    // The offline page is wanted from the first visit on, not after every tab was closed.
    await worker.skipWaiting();
  })());
});

worker.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('swapboard ') && name !== CACHE) await caches.delete(name);
    }
    await worker.clients.claim();
  })());
});

// Only page loads are answered here (the API's requests, the scripts and the sockets go
// to the network untouched): the network's answer, or the offline page if there is none.
worker.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return;
  event.respondWith(fetch(event.request).catch(async () => {
    const cached = await caches.match(OFFLINE_PAGE, { cacheName: CACHE });
    return cached ?? Response.error();
  }));
});

worker.addEventListener('push', (event) => {
  let payload: unknown = null;
  try {
    payload = event.data?.json() ?? null;
  } catch {
    payload = null;
  }
  const shown = shownOf(payload);
  event.waitUntil(Promise.all([
    worker.registration.showNotification(shown.title, {
      body: shown.body,
      data: { url: shown.url },
      // One notification per page: a newer one about the same game replaces the older.
      tag: shown.url,
    }),
    // The push may be a move of an opponent's: the count of games to move has changed.
    showTurnBadge(worker.navigator),
  ]));
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(shownOf({ url: (event.notification.data as { url?: unknown } | null)?.url }).url, worker.location.origin).href;
  event.waitUntil((async () => {
    const tabs = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const same = tabs.find((tab) => tab.url === url) ?? tabs[0];
    if (same) {
      if (same.url !== url) await same.navigate(url);
      await same.focus();
    } else {
      await worker.clients.openWindow(url);
    }
  })());
});
