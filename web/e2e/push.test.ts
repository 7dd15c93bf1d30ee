// End-to-end (issue 27): the notifications page offers "Notify me on this device"; turning it
// on registers the service worker (/sw.js) and, where the browser has a push service, hands
// the subscription to the server. Headless Chromium may have no push service: then the page
// says why and the switch goes back off, and nothing is stored.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { call, player, shot, token, useWorld } from './harness';

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
