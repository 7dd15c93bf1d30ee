// End-to-end (issue 26): a player's page as a visitor uses it: the record per game, the
// games filtered through the form (the filters kept in the address), the head-to-head
// record against one opponent, and the rooms played; on a desktop and a phone.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { apiGame, call, context, shot, token, useWorld } from './harness';

const world = useWorld();

/** An account's name and bearer token. */
type Account = [string, string];

/** Plays two moves of a 5×5 Flipstop game (it can no longer be aborted), then `loser` resigns. */
async function decided(w: ReturnType<typeof world>, [, first]: Account, [name, second]: Account, [, loser]: Account): Promise<string> {
  const id = await apiGame(w, first, second, { game: 'flipstop', size: 5, opponent: `user:${name}` });
  await call(w, first, 'POST', `/api/games/${id}/moves`, { move: 'c3', ply: 0 });
  await call(w, second, 'POST', `/api/games/${id}/moves`, { move: 'a1', ply: 1 });
  await call(w, loser, 'POST', `/api/games/${id}/resign`);
  return id;
}

test('a player\'s page: record, filters, head-to-head and rooms', async () => {
  const w = world();
  const pia: Account = ['pia', await token(w, 'pia')];
  const quin: Account = ['quin', await token(w, 'quin')];
  const rex: Account = ['rex', await token(w, 'rex')];
  // Pia beats Quin twice and loses to Rex once; she also sits in a room's lobby.
  const beaten = [await decided(w, pia, quin, quin), await decided(w, quin, pia, quin)];
  const lost = await decided(w, pia, rex, pia);
  const room = await call<{ id: string; invite: string }>(w, rex[1], 'POST', '/api/rooms', { seats: 9, round5: 'theme', round_hours: 24 });
  await call(w, pia[1], 'POST', `/api/rooms/${room.id}/join`, { invite: room.invite });

  for (const phone of [false, true]) {
    const ctx = await context(w, phone);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('/players/pia');
    const record = page.getByRole('table', { name: 'record', exact: true });
    await record.waitFor();
    assert.deepEqual(await record.locator('tbody tr').first().locator('th, td').allTextContents(), ['Flipstop', '3', '2', '1', '0']);
    const rooms = page.getByRole('region', { name: 'Swap 61 rooms' });
    await rooms.getByText(`seat 1 of 9 · game master rex · in its lobby`).waitFor();
    assert.equal(await page.locator('li.game-item a[href^="/games/"]').count(), 3);

    // The form: the games Pia won against Quin; the address keeps the filters.
    const form = page.getByRole('form', { name: 'filter the games' });
    await form.getByLabel('Result').selectOption('won');
    await form.getByLabel('Against').fill('quin');
    await form.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/\/players\/pia\?result=won&opponent=quin$/);
    await page.getByRole('heading', { name: 'Against quin: 2 won, 0 lost, 0 drawn' }).waitFor();
    const shown = await page.locator('li.game-item a[href^="/games/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    assert.deepEqual(shown.sort(), beaten.map((id) => `/games/${id}`).sort());
    assert.equal(await form.getByLabel('Result').inputValue(), 'won');
    await shot(page, `player-filters${phone ? '-phone' : ''}`);

    // Against Rex: the lost game; filtering on a draw shows none, in words.
    await page.goto('/players/pia?opponent=rex&result=drawn');
    await page.getByRole('heading', { name: 'Against rex: 0 won, 1 lost, 0 drawn' }).waitFor();
    await page.getByText('No games pass these filters.').waitFor();
    await page.getByRole('link', { name: 'All games' }).click();
    await page.waitForURL(/\/players\/pia$/);
    await page.locator(`a[href="/games/${lost}"]`).waitFor();
    assert.deepEqual(errors, []);
    await ctx.close();
  }

  // The game Pia lost, rated by default: each player's rating going in ("1612", "1612?" while
  // provisional) and the change ("+12", "−12"), as the server's game view has them.
  const view = await call<{ players: { name: string; rating: { before: number; change: number; provisional: boolean } }[] }>(
    w, pia[1], 'GET', `/api/games/${lost}`);
  const [piaRating, rexRating] = view.players.map((p) => p.rating);
  assert.ok(piaRating.change < 0 && rexRating.change > 0, JSON.stringify(view.players));
  const ctx = await context(w);
  const page = await ctx.newPage();
  await page.goto(`/games/${lost}`);
  const players = page.locator('.players .player');
  await players.first().locator('.rating-change').waitFor();
  const words = (r: { before: number; provisional: boolean }): string => ` ${Math.round(r.before)}${r.provisional ? '?' : ''}`;
  assert.deepEqual(await players.locator('.game-rating').allTextContents(), [
    `${words(piaRating)} \u2212${Math.round(-piaRating.change)}`,
    `${words(rexRating)} +${Math.round(rexRating.change)}`,
  ]);
  await shot(page, 'game-rating-change');
  await ctx.close();
});
