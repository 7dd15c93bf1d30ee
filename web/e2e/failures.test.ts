// End-to-end: a server that goes away and comes back, an expired session, and the figures
// the issue sets (a 26 x 26 redraw within a frame, the move builder within 50 ms).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cell, createGame, player, shot, useWorld, waitForPlies } from './harness';

const world = useWorld();

test('a server that goes down is shown, retried, and the game resyncs', async () => {
  const { ctx, page } = await player(world(), 'gil');
  await createGame(page, { game: 'flipstop', size: 5, colour: 'first', opponent: 'ai', level: 1 });
  await page.getByText('Live.').waitFor();
  await world().stopServer();
  await page.getByText('Connection lost: reconnecting…').waitFor();
  await world().startServer();
  await page.getByText('Reconnected and resynced.').waitFor({ timeout: 20_000 });
  await world().stopServer();
  // A page change while it is down: the banner says so and retries.
  await page.getByRole('link', { name: 'Home' }).click();
  await page.locator('#banner', { hasText: 'cannot be reached' }).waitFor();
  await shot(page, 'server-down-desktop');
  await world().startServer();
  await page.locator('#banner', { hasText: 'Connected again.' }).waitFor({ timeout: 20_000 });
  await page.getByRole('heading', { name: 'Open challenges' }).waitFor();
  await page.goBack();
  await page.getByText('Your move.').waitFor();
  await ctx.close();
});

test('an expired session leads to log in, and back to the page', async () => {
  const { ctx, page } = await player(world(), 'hal');
  await page.goto('/new');
  await ctx.clearCookies();
  await page.getByRole('button', { name: 'Create the game' }).click();
  await page.waitForURL('**/login?next=%2Fnew');
  await page.getByLabel('Name').fill('hal');
  await page.getByLabel('Password').fill('correct horse');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/new');
  await page.getByRole('heading', { name: 'New game' }).waitFor();
  await ctx.close();
});

test('a 26 x 26 board redraws within a frame and the move builder answers within 50 ms', async () => {
  const { ctx, page } = await player(world(), 'ida');
  await createGame(page, { game: 'scware', size: 26, colour: 'first', opponent: 'ai', level: 1 });
  const draws: number[] = [];
  const clicks: number[] = [];
  for (const [start, grow] of [['c3', 'c4'], ['x24', 'x23'], ['m13', 'm14']]) {
    await page.getByText('Your move.').waitFor({ timeout: 30_000 });
    const moves = await page.locator('ol.moves li').count();
    if (!(await cell(page, start).getAttribute('aria-label'))?.endsWith('empty')) continue;
    await cell(page, start).click();
    await waitForPlies(page, moves + 2);
    await page.getByText('Your move.').waitFor({ timeout: 30_000 });
    draws.push(Number(await page.locator('svg.board').getAttribute('data-draw-ms')));
    // A growth click: from the click to the board showing the builder's answer.
    const ms = await page.evaluate(async (name) => {
      const target = document.querySelector(`svg.board [data-cell="${name}"]`);
      if (!target) return Infinity;
      const t0 = performance.now();
      const answered = new Promise<void>((done) => {
        const watch = new MutationObserver(() => {
          if (target.classList.contains('chosen') || (document.querySelector('.refusal')?.textContent ?? '') !== '') {
            watch.disconnect();
            done();
          }
        });
        watch.observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
      });
      target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await answered;
      return performance.now() - t0;
    }, grow);
    clicks.push(ms);
    await page.locator('.controls button', { hasText: 'Clear' }).click();
  }
  console.log(`26x26 redraws (ms): ${draws.join(' ')}; builder clicks (ms): ${clicks.map((c) => c.toFixed(1)).join(' ')}`);
  assert.ok(draws.length > 0 && clicks.length > 0);
  assert.ok(Math.max(...draws) < 16, `redraws ${draws.join(' ')}`);
  // The median: one click may meet a machine busy elsewhere (CI shares its cores).
  const median = [...clicks].sort((a, b) => a - b)[Math.floor(clicks.length / 2)];
  assert.ok(median < 50, `clicks ${clicks.join(' ')}`);
  await shot(page, 'scware-26-desktop');
  await ctx.close();
});
