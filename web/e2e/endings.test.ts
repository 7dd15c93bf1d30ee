// End-to-end: how a game ends, in words (issue 22): "You won by connection" and its
// reverse to the players, "una wins by connection" to a watcher, the rematch offer, a
// finished position analysed, a 15 s clock run out ("You lost on time", 0:00).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';

import { apiGame, call, cell, createGame, enter, shot, token, useWorld, waitForPlies } from './harness';
import type { GameView } from '../src/types';

const world = useWorld();

test('endings in words, the rematch offer, and a finished position analysed', async () => {
  const w = world();
  const [una, vic] = [await token(w, 'una'), await token(w, 'vic')];
  const id = await apiGame(w, una, vic, { game: 'swaptimum', size: 3, opponent: 'user:vic' });
  const pages: Record<string, Page> = {};
  for (const name of ['una', 'vic', 'walt']) {
    const ctx = await w.browser.newContext({ baseURL: w.base, viewport: { width: 1280, height: 800 } });
    pages[name] = await ctx.newPage();
    if (name !== 'walt') await enter(pages[name], name, 'Log in');
    await pages[name].goto(`/games/${id}`);
  }
  // Red connects b1-b2-b3 (top to bottom).
  for (const [who, move] of [[una, 'b1'], [vic, 'a1'], [una, 'b2'], [vic, 'a2'], [una, 'b3']] as const) {
    const game = await call<GameView>(w, una, 'GET', `/api/games/${id}`);
    await call(w, who, 'POST', `/api/games/${id}/moves`, { move, ply: game.ply });
  }
  await pages.una.locator('.status', { hasText: 'You won by connection.' }).waitFor();
  await pages.vic.locator('.status', { hasText: 'You lost by connection.' }).waitFor();
  await pages.walt.locator('.status', { hasText: 'una wins by connection.' }).waitFor();
  assert.match((await cell(pages.walt, 'b2').getAttribute('aria-label')) ?? '', /winning path/);
  await pages.walt.locator('.board-legend [data-legend="winning"]').waitFor();
  // A finished position has nothing to analyse: the page says the game is over.
  await pages.walt.getByRole('button', { name: 'Best moves here' }).click();
  await pages.walt.locator('.analysis-out', { hasText: 'the game is over' }).waitFor();
  // The review: the first player's chance over the game (the start and five plies), and
  // each player's judged moves counted.
  await pages.walt.getByRole('button', { name: 'Review the whole game' }).click();
  const line = pages.walt.locator('.eval-graph polyline');
  await line.waitFor({ timeout: 60_000 });
  assert.equal(((await line.getAttribute('points')) ?? '').split(' ').length, 6);
  const players = await pages.walt.locator('.review-summary tbody tr td:first-child').allTextContents();
  assert.deepEqual(players, ['una (R)', 'vic (B)']);
  await shot(pages.walt, 'review-1280x800');
  // vic offers a rematch: una reads it in words, may decline it here, and accepts it.
  await call(w, vic, 'POST', `/api/games/${id}/rematch`);
  await pages.una.locator('.offer', { hasText: 'vic offers a rematch' }).waitFor();
  await pages.vic.locator('.offer', { hasText: 'You offered a rematch.' }).waitFor();
  await shot(pages.una, 'rematch-offer-1280x800');
  await pages.una.getByRole('button', { name: 'Decline' }).click();
  assert.equal(await pages.una.locator('.offer').count(), 0);
  await pages.una.reload();
  await pages.una.getByRole('button', { name: 'Accept' }).click();
  await pages.una.waitForURL((url) => url.pathname.startsWith('/games/') && !url.pathname.endsWith(id));
  await pages.una.locator('.status', { hasText: /to move|Your move/ }).waitFor();
  for (const page of Object.values(pages)) await page.context().close();
});

test('a 15 s clock: the flag falls, the loser reads "You lost on time" and 0:00', async () => {
  const w = world();
  const ctx = await w.browser.newContext({ baseURL: w.base, viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await enter(page, 'tim');
  const id = await createGame(page, { game: 'flipstop', size: 5, colour: 'first', opponent: 'ai', level: 1, minutes: 0.25 });
  await page.getByText('Your move.').waitFor();
  assert.match((await page.locator('.clock-kind').textContent()) ?? '', /15 s \+ 0 s/);
  // The first move starts the clocks; then no more.
  await cell(page, 'c3').click();
  await waitForPlies(page, 2);
  await page.locator('.status', { hasText: 'You lost on time.' }).waitFor({ timeout: 30_000 });
  await page.locator('#clock-0', { hasText: '0:00' }).waitFor();
  const game = await call<GameView>(w, await token(w, 'tim'), 'GET', `/api/games/${id}`);
  assert.equal(game.clocks?.remaining_ms[0], 0);
  await shot(page, 'lost-on-time-1280x800');
  await ctx.close();
});
