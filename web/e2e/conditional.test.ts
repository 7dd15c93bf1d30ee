// End-to-end: conditional moves on the game page (issue 50). In a correspondence game, ann
// leaves a reply while bob thinks; bob's matching move brings ann's reply at once, marked
// "by condition" in the move list both see; her next line shows what is left. At a phone's
// width the panel fits.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { call, context, enter, logIn, shot, token, useWorld } from './harness';

const world = useWorld();

test('a conditional reply is kept, played when its move comes, and marked', async () => {
  const bob = await token(world(), 'bob');
  const ctx = await context(world(), true);
  const page = await ctx.newPage();
  await enter(page, 'ann');
  const annToken = await logIn(world(), 'ann');
  const created = await call<{ id: string }>(world(), annToken, 'POST', '/api/games', {
    game: 'flipstop', size: 5, opponent: 'user:bob', colour: 'first', clock: { days_per_move: 3 },
  });
  await call(world(), bob, 'POST', `/api/games/${created.id}/join`, {});
  await call(world(), annToken, 'POST', `/api/games/${created.id}/moves`, { move: 'c3', ply: 0 });

  await page.goto(`/games/${created.id}`);
  const panel = page.locator('details.conditional');
  await panel.locator('summary').click();
  await panel.getByText('None: you play every move yourself.').waitFor();
  // A move the rules refuse is named, and nothing is kept.
  await panel.getByLabel(/^Lines/).fill('a1 a1');
  await panel.getByRole('button', { name: 'Keep these lines' }).click();
  await panel.getByText(/line 1, move 2/).waitFor();
  await panel.getByLabel(/^Lines/).fill('a1 e5 a2 e4\nd2 b4');
  await panel.getByRole('button', { name: 'Keep these lines' }).click();
  await panel.getByText('if they play a1, play e5; then if a2, e4').waitFor();
  await shot(page, 'conditional-phone');

  await call(world(), bob, 'POST', `/api/games/${created.id}/moves`, { move: 'a1', ply: 1 });
  await page.locator('ol.moves button[data-ply="3"]').waitFor();
  assert.match(await page.locator('ol.moves button[data-ply="3"]').innerText(), /e5[\s\S]*by condition/);
  // Bob is to move again: the rest of the plan is shown.
  await panel.getByText('if they play a2, play e4').waitFor();
  await ctx.close();
});
