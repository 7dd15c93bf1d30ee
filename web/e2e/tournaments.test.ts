// End-to-end (issue 26): the tournaments' list and a round robin's page with its crosstable,
// standings and a result arriving live; a tournament created and joined through the form;
// a player's ratings with their chart; a game's leaderboard.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { call, context, enter, shot, token, useWorld } from './harness';

const world = useWorld();

interface Tournament {
  id: string;
  rounds: { round: number; games: { id: string | null; first: string; second: string; result: string | null }[] }[];
}

test('a round robin\'s page: crosstable, standings, a result live; a tournament made by the form', async () => {
  const w = world();
  const names = ['tina', 'tom', 'tess', 'theo'];
  const bearers = new Map<string, string>();
  for (const name of names) bearers.set(name, await token(w, name));
  const at = (name: string): string => bearers.get(name) ?? '';
  const startsAt = new Date(Date.now() + 3_600_000).toISOString();
  const created = await call<Tournament>(w, at('tina'), 'POST', '/api/tournaments', {
    game: 'flipstop', size: 5, format: 'round_robin', clock: { days_per_move: 3 }, starts_at: startsAt, min_players: 4, max_players: 10,
  });
  for (const name of names) await call(w, at(name), 'POST', `/api/tournaments/${created.id}/join`);
  const started = await call<Tournament>(w, at('tina'), 'POST', `/api/tournaments/${created.id}/start`);
  const [one, two] = started.rounds[0].games;
  // The first game of round 1 ends before the page opens: its second player resigns.
  await call(w, at(one.second), 'POST', `/api/games/${one.id}/resign`);

  for (const phone of [false, true]) {
    const ctx = await context(w, phone);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('/tournaments');
    await page.getByRole('heading', { name: 'Running' }).waitFor();
    await page.getByRole('link', { name: /Flipstop 5×5/ }).first().click();
    await page.getByRole('heading', { name: 'Flipstop tournament' }).waitFor();
    await page.getByRole('heading', { name: 'Division 1' }).waitFor();
    const standings = page.locator('table.standings tbody tr');
    assert.equal(await standings.count(), 4);
    // The winner of the game finished first leads with 1 point (later, the second game's
    // winner leads on games won as the second player).
    const leader = phone ? two.second : one.first;
    assert.match((await standings.first().textContent()) ?? '', new RegExp(`^11${leader}1`));
    // A visitor is offered no button.
    assert.equal(await page.getByRole('button', { name: 'Join' }).count(), 0);
    const cross = page.locator('table.crosstable');
    assert.equal(await cross.locator('tbody tr').count(), 4);
    // A round robin lists its rounds too, each pairing linking to its game.
    const rounds = page.getByRole('region', { name: 'rounds' });
    await rounds.getByRole('heading', { name: 'Round 1' }).waitFor();
    assert.equal(await rounds.locator(`a[href="/games/${two.id}"]`).count(), 1);
    await shot(page, `tournament-round-robin${phone ? '-phone' : ''}`);
    if (!phone) {
      // The second game ends while the page is open: the socket brings it.
      await call(w, at(two.first), 'POST', `/api/games/${two.id}/resign`);
      await page.waitForFunction((second) => {
        const rows = [...document.querySelectorAll('table.standings tbody tr')];
        return rows.some((row) => row.children[2]?.textContent === second && row.children[3]?.textContent === '1');
      }, two.second);
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  }

  // A new account makes a Swiss through the form and joins it.
  const ctx = await context(w);
  const page = await ctx.newPage();
  await enter(page, 'una');
  await page.goto('/tournaments');
  await page.getByRole('heading', { name: 'New tournament' }).waitFor();
  await page.getByLabel('Game').selectOption('scware');
  await page.getByLabel('Board size').fill('7');
  await page.getByLabel('Format').selectOption('swiss');
  await page.getByLabel('Rounds').fill('3');
  // A live clock, this time.
  await page.getByLabel('Time control').selectOption('live');
  await page.getByLabel('Minutes each').fill('5');
  await page.getByLabel('Increment (s)').fill('3');
  await page.getByRole('button', { name: 'Create the tournament' }).click();
  await page.waitForURL(/\/tournaments\/[0-9a-f]+$/);
  await page.getByText(/Open for entries: 0 of 4 to 40 players/).waitFor();
  const made = await call<{ size: number; clock: unknown }>(w, at('tina'), 'GET', `/api/tournaments/${new URL(page.url()).pathname.split('/')[2]}`);
  assert.deepEqual([made.size, made.clock], [7, { initial_s: 300, increment_s: 3 }]);
  await page.getByRole('button', { name: 'Join' }).click();
  await page.getByRole('region', { name: 'players' }).getByRole('link', { name: 'una' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Join' }).isHidden(), true);
  await shot(page, 'tournament-open');

  // A player's page: the rating of the game played rated, its chart; the leaderboard.
  await page.goto(`/players/${one.first}`);
  await page.getByRole('heading', { name: 'Ratings' }).waitFor();
  await page.locator('svg.rating-chart circle').waitFor();
  await page.getByText(/RD \d+; 1 rated games played\./).waitFor();
  // The record counts the game the server says was won.
  assert.deepEqual(await page.getByRole('table', { name: 'record', exact: true }).locator('tbody tr').first().locator('th, td').allTextContents(),
    ['Flipstop', '1', '1', '0', '0']);
  await shot(page, 'player-ratings');
  // The pool of the tournament's 5x5 boards: Flipstop's small band.
  await page.getByRole('link', { name: 'Flipstop, small boards (3\u20137)', exact: true }).click();
  await page.waitForURL(/\/leaderboards\/flipstop\?band=small$/);
  await page.getByRole('heading', { name: 'Flipstop leaderboard' }).waitFor();
  await page.getByText('Nobody qualifies yet.').waitFor();
  await shot(page, 'leaderboard');
  await ctx.close();
});
