// End-to-end (issue 50): the installable app at a phone's size. The page links a manifest
// whose fields are the app's and whose icons are PNGs of the sizes they state; the service
// worker shows the offline page when the server is gone; the app's badge counts the games
// waiting for the player's move.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { Page } from 'playwright-core';

import { apiGame, call, context, enter, logIn, shot, token, useWorld } from './harness';

const world = useWorld();

/** The width and height a PNG states in its header (IHDR, the first chunk). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('ascii'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A CSS colour (`rgb(38, 36, 31)`) as the manifest writes it (`#26241f`). */
function hex(rgb: string): string {
  const parts = rgb.match(/\d+/g) ?? [];
  return `#${parts.slice(0, 3).map((part) => Number(part).toString(16).padStart(2, '0')).join('')}`;
}

/** Fetches a path of the site: its status, content type and bytes. */
async function fetched(path: string): Promise<{ status: number; type: string; body: Buffer }> {
  const answer = await fetch(`${world().base}${path}`);
  return { status: answer.status, type: answer.headers.get('content-type') ?? '', body: Buffer.from(await answer.arrayBuffer()) };
}

/** Waits until the service worker is active and controls the page. */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('the page links a manifest that names the app, with PNG icons of the sizes it states', async () => {
  const ctx = await context(world(), true);
  const page = await ctx.newPage();
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  assert.equal(href, '/manifest.webmanifest');
  const answer = await fetched(href);
  assert.equal(answer.status, 200);
  assert.equal(answer.type, 'application/manifest+json');
  const manifest = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
  assert.equal(manifest.name, 'swapboard');
  assert.equal(manifest.short_name, 'swapboard');
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.scope, '/');
  assert.equal(manifest.display, 'standalone');
  // The app's colours are the page's own: its header's and its paper's.
  const colours = await page.evaluate(() => [getComputedStyle(document.querySelector('header')!).backgroundColor, getComputedStyle(document.body).backgroundColor]);
  assert.equal(manifest.theme_color, hex(colours[0]));
  assert.equal(manifest.background_color, hex(colours[1]));
  assert.equal(await page.locator('meta[name="theme-color"]').getAttribute('content'), manifest.theme_color);

  const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
  for (const icon of icons) {
    const png = await fetched(icon.src);
    assert.equal(png.status, 200, icon.src);
    assert.equal(png.type, 'image/png', icon.src);
    assert.equal(icon.type, 'image/png');
    const { width, height } = pngSize(png.body);
    assert.equal(`${width}x${height}`, icon.sizes, icon.src);
  }
  const offered = icons.map((icon) => `${icon.sizes} ${icon.purpose}`);
  for (const wanted of ['192x192 any', '512x512 any', '512x512 maskable']) assert.ok(offered.includes(wanted), `${wanted} in ${offered.join(', ')}`);

  // iOS takes its home-screen icon from the page, not the manifest.
  const apple = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
  assert.ok(apple);
  const touch = await fetched(apple);
  assert.equal(touch.status, 200);
  assert.equal(touch.type, 'image/png');
  assert.deepEqual(pngSize(touch.body), { width: 180, height: 180 });
  await ctx.close();
});

test('with the server gone, a page load shows the offline page; back, the app again', async () => {
  const w = world();
  const ctx = await context(w, true);
  const page = await ctx.newPage();
  await enter(page, 'oda');
  await controlled(page);
  await w.stopServer();
  try {
    await page.goto('/new');
    await page.getByText('You are offline: swapboard needs the server to play; your games are safe.').waitFor();
    // It draws with the site's style, cached with it.
    assert.equal(await page.locator('header').evaluate((header) => getComputedStyle(header).backgroundColor), 'rgb(38, 36, 31)');
    await shot(page, 'offline-phone');
  } finally {
    await w.startServer();
  }
  await page.getByRole('link', { name: 'Try again' }).click();
  await page.getByRole('heading', { name: 'New game' }).waitFor();
  await ctx.close();
});

test('the app badge counts the games waiting for the player\'s move', async () => {
  const w = world();
  const ctx = await context(w, true);
  // Chromium answers the Badging API only for an installed app: the test reads what the
  // page asks of it instead.
  await ctx.addInitScript(() => {
    const shown: number[] = [];
    Object.assign(window, { badges: shown });
    navigator.setAppBadge = async (count?: number) => {
      shown.push(count ?? 0);
    };
    navigator.clearAppBadge = async () => {
      shown.push(0);
    };
  });
  const page = await ctx.newPage();
  await enter(page, 'bea');
  const badges = (): Promise<number[]> => page.evaluate(() => (window as unknown as { badges: number[] }).badges);
  const bea = await logIn(w, 'bea');
  const cid = await token(w, 'cid');
  const id = await apiGame(w, bea, cid, { game: 'swaptimum', size: 3, opponent: 'user:cid' });
  // Counted at each page (and at each change of the inbox).
  await page.getByRole('link', { name: 'New game' }).click();
  await page.waitForFunction(() => (window as unknown as { badges: number[] }).badges.at(-1) === 1);
  await call(w, bea, 'POST', `/api/games/${id}/moves`, { move: 'b2', ply: 0 });
  // The player's own move leaves no notice for the player: the next page counts again.
  await page.getByRole('link', { name: 'Home' }).click();
  await page.waitForFunction(() => (window as unknown as { badges: number[] }).badges.at(-1) === 0);
  assert.ok((await badges()).includes(1));
  await ctx.close();
});
