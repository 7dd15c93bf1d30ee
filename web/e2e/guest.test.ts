// End-to-end (issue 25): a visitor plays the AI at once from the front page, as a guest with
// no account, then signs up from the same browser and still has the game.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cell, context, shot, submitAccount, useWorld, waitForPlies } from './harness';

const world = useWorld();

test('a guest plays the AI from the front page, signs up and keeps the game', async () => {
  const w = world();
  const ctx = await context(w);
  const page = await ctx.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Play Swaptimum against the AI now' }).click();
  await page.waitForURL(/\/games\/[0-9a-zA-Z_-]+$/);
  const id = new URL(page.url()).pathname.split('/')[2];
  const header = page.locator('header nav');
  await header.getByRole('link', { name: /^guest-[0-9a-f]{8} \(guest\)$/ }).waitFor();
  await page.getByText('Your move.').waitFor();
  await cell(page, 'c3').click();
  // The AI answers.
  await waitForPlies(page, 2);
  await shot(page, 'guest-game');

  // Signing up from the guest's session keeps the game.
  await header.getByRole('link', { name: 'Sign up to keep your games' }).click();
  await page.getByText('signing up keeps your games').waitFor();
  await submitAccount(page, 'convert', 'Sign up');
  await page.getByRole('heading', { name: 'Your turn' }).waitFor();
  await header.getByRole('link', { name: 'convert', exact: true }).waitFor();
  await page.goto('/players/convert');
  await page.locator(`a[href="/games/${id}"]`).waitFor();
  const games = (await (await ctx.request.get('/api/accounts/convert/games')).json()) as { games: { id: string }[] };
  assert.deepEqual(games.games.map((g) => g.id), [id]);
  await page.goto(`/games/${id}`);
  await page.locator('ol.moves button[data-ply]').first().waitFor();
  await ctx.close();
});
