// The service worker (served as /sw.js): shows each web push as a notification and, on a
// click, focuses a tab of the site on the push's page or opens one. The DOM library's types
// are the project's; the few service-worker ones it uses are written here.

import { shownOf } from './pushdata';

interface Extendable extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushLike extends Extendable {
  data: { json(): unknown } | null;
}
interface ClickLike extends Extendable {
  notification: Notification;
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
  };
  location: Location;
  addEventListener(type: 'push', listener: (event: PushLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: ClickLike) => void): void;
}

const worker = self as unknown as Worker;

worker.addEventListener('push', (event) => {
  let payload: unknown = null;
  try {
    payload = event.data?.json() ?? null;
  } catch {
    payload = null;
  }
  const shown = shownOf(payload);
  event.waitUntil(worker.registration.showNotification(shown.title, {
    body: shown.body,
    data: { url: shown.url },
    // One notification per page: a newer one about the same game replaces the older.
    tag: shown.url,
  }));
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
