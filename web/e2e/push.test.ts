// End-to-end (issue 27): the notifications page offers "Notify me on this device"; turning it
// on registers the service worker (/sw.js) and, where the browser has a push service, hands
// the subscription to the server. Headless Chromium may have no push service: then the page
// says why and the switch goes back off, and nothing is stored.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { apiGame, call, logIn, player, shot, token, useWorld } from './harness';

const world = useWorld();

interface Settings {
  push: { endpoint: string }[];
}

test('the switch registers the service worker and stores the subscription or says why not', async () => {
  const w = world();
  const { ctx, page } = await player(w, 'pia');
  await ctx.grantPermissions(['notifications']);
  await page.goto('/notifications');
  const toggle = page.getByLabel('Notify me on this device');
  await toggle.waitFor();
  assert.equal(await toggle.isChecked(), false);
  await toggle.check({ force: true }).catch(() => {});
  const status = page.getByRole('status');
  await status.filter({ hasText: /\S/ }).waitFor();
  const said = (await status.textContent()) ?? '';
  const worker = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.active?.scriptURL ?? null);
  assert.ok(worker?.endsWith('/sw.js'), `the service worker: ${worker}`);
  const settings = await call<Settings>(w, await token(w, 'pia'), 'GET', '/api/me/notifications/settings');
  if (said === 'This device will be notified.') {
    assert.equal(settings.push.length, 1);
    assert.equal(await toggle.isChecked(), true);
  } else {
    // No push service in this browser: nothing stored, the switch off again.
    assert.deepEqual(settings.push, [], said);
    assert.equal(await toggle.isChecked(), false, said);
  }
  await shot(page, 'notifications-push');
  await ctx.close();
});

test('a push is shown by the service worker, counts the badge, and its click opens the game', async () => {
  const w = world();
  const { ctx, page } = await player(w, 'pat');
  await ctx.grantPermissions(['notifications']);
  const pat = await logIn(w, 'pat');
  const quin = await token(w, 'quin');
  const id = await apiGame(w, quin, pat, { game: 'swaptimum', size: 3, opponent: 'user:pat' });
  await call(w, quin, 'POST', `/api/games/${id}/moves`, { move: 'b2', ply: 0 });
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const worker = ctx.serviceWorkers().find((sw) => sw.url().endsWith('/sw.js')) ?? await ctx.waitForEvent('serviceworker');
  // Chromium answers the Badging API only for an installed app: the worker's calls are read.
  await worker.evaluate(() => {
    const shown: number[] = [];
    Object.assign(self, { badges: shown });
    Object.assign(navigator, { setAppBadge: async (count?: number) => { shown.push(count ?? 0); } });
  });

  // A push as the push service hands it to the browser (DevTools' "Push" button): the
  // payload the server's worker sends (crates/server/src/notify/worker.rs).
  const cdp = await ctx.newCDPSession(page);
  const registration = new Promise<string>((done) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${w.base}/` && !r.isDeleted);
      if (ours) done(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const payload = { title: 'swapboard: your turn', body: 'Your turn against quin.', url: `/games/${id}` };
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: w.base, registrationId: await registration, data: JSON.stringify(payload) });
  const shown = await page.waitForFunction(async () => {
    const list = await (await navigator.serviceWorker.ready).getNotifications();
    return list.length > 0 ? { title: list[0].title, body: list[0].body, data: list[0].data as unknown } : null;
  });
  assert.deepEqual(await shown.jsonValue(), { title: payload.title, body: payload.body, data: { url: payload.url } });
  await worker.evaluate(() => new Promise<void>((done) => {
    const wait = (): void => {
      if ((self as unknown as { badges: number[] }).badges.length > 0) done();
      else setTimeout(wait, 20);
    };
    wait();
  }));
  assert.deepEqual(await worker.evaluate(() => (self as unknown as { badges: number[] }).badges), [1]);

  // The click: Chromium has no way to click a notification from a test, so the worker is
  // handed a `notificationclick` for the notification it shows; its `waitUntil` (refused to
  // an event not made by the browser) is given the handler's promise instead.
  const clicked = await worker.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration };
    const [notification] = await scope.registration.getNotifications();
    const NotificationClick = (self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent;
    const event = new NotificationClick('notificationclick', { notification });
    let handled: Promise<unknown> = Promise.resolve();
    Object.defineProperty(event, 'waitUntil', { value: (promise: Promise<unknown>) => { handled = promise; } });
    self.dispatchEvent(event);
    // The tab's focus needs a real click: a refusal of it is said, not thrown.
    return handled.then(() => 'done', (error: unknown) => String(error));
  });
  await page.waitForURL(`**/games/${id}`);
  await page.getByText('Your move.').waitFor();
  assert.ok(clicked === 'done' || /focus/i.test(clicked), clicked);
  assert.equal(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length), 0, 'the click closes the notification');
  await shot(page, 'push-click-opens-game');
  await ctx.close();
});
