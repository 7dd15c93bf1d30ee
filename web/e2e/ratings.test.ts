// End-to-end (issue 49, item 5): ratings that mean something, as a club sees them. Four people
// play a double round robin on the usual Flipstop board and one small game; two bots play each
// other. The leaderboard lists the club (RD shown, the wider limit and the "?" explained),
// bots on their own board, the small band apart; a profile shows each pool with a chart that
// has its axes' values; the nav leads to the leaderboards and the players; the form turns
// "Rated" off on a board the solver has proved.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { apiGame, call, context, enter, shot, token, useWorld } from './harness';

// A club signs up more than the default 5 accounts an hour from one address (the server reads
// this when the world starts it).
process.env.SWAPBOARD_LIMIT_SIGNUP_PER_ADDRESS = '20/1h';
const world = useWorld();

/** Two moves of a Flipstop game of side `size` between two API accounts, then `loser` resigns. */
async function decided(w: ReturnType<typeof world>, size: number, [first, second]: [string, string], secondName: string, loser: string): Promise<void> {
  const id = await apiGame(w, first, second, { game: 'flipstop', size, opponent: `user:${secondName}` });
  await call(w, first, 'POST', `/api/games/${id}/moves`, { move: 'c3', ply: 0 });
  await call(w, second, 'POST', `/api/games/${id}/moves`, { move: 'a1', ply: 1 });
  await call(w, loser, 'POST', `/api/games/${id}/resign`);
}

test('a club\'s leaderboards, pools, players and the proven boards', async () => {
  const w = world();
  const names = ['ana', 'ben', 'cid', 'dee'];
  const tokens = new Map<string, string>();
  for (const name of names) tokens.set(name, await token(w, name));
  const t = (name: string): string => tokens.get(name) ?? '';
  // Each pair twice, once with each colour; the first named wins when the pair's index sum is even.
  for (const [i, a] of names.entries()) {
    for (const [j, b] of names.entries()) {
      if (i === j) continue;
      const loser = (i + j) % 2 === 0 ? b : a;
      await decided(w, 9, [t(a), t(b)], b, t(loser));
    }
  }
  await decided(w, 5, [t('ana'), t('ben')], 'ben', t('ben'));
  const robo = await token(w, 'robo');
  const rubi = await token(w, 'rubi');
  // 204 with no body, which `call` would try to read.
  for (const bot of [robo, rubi]) {
    const marked = await fetch(`${w.base}/api/me/bot`, { method: 'POST', headers: { Authorization: `Bearer ${bot}` } });
    assert.equal(marked.status, 204);
  }
  // Bot against bot is rated by default: four games, so that both show on the bots' board.
  for (const loser of [rubi, robo, rubi, robo]) await decided(w, 9, [robo, rubi], 'rubi', loser);

  for (const phone of [false, true]) {
    const ctx = await context(w, phone);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('/');
    // The nav leads to the leaderboards (on a phone it may be folded: follow the link's address).
    const link = page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'Leaderboards' });
    await page.goto((await link.getAttribute('href')) ?? '/leaderboards/swaptimum');
    await page.getByRole('heading', { name: /Swaptimum.*leaderboard/ }).waitFor();
    await page.getByRole('navigation', { name: 'leaderboards' }).getByRole('link', { name: /Flipstop/ }).click();
    await page.waitForURL(/\/leaderboards\/flipstop$/);
    const table = page.locator('table.leaderboard');
    await table.waitFor();
    const rows = await table.locator('tbody tr td:nth-child(2)').allTextContents();
    assert.deepEqual([...rows].sort(), names);
    // The RD is shown, and the limit explained: 300 while fewer than 30 play.
    const rds = (await table.locator('tbody tr td:nth-child(4)').allTextContents()).map(Number);
    assert.ok(rds.every((rd) => rd > 75 && rd <= 300), String(rds));
    await page.getByText(/rating deviation \(RD\) of at most 300 for a pool of 4 active people/).waitFor();
    const marked = table.locator('span.provisional');
    assert.ok(await marked.count() > 0);
    assert.match((await marked.first().getAttribute('title')) ?? '', /Provisional \("\?"\): the rating deviation \(RD\) is 110 or more/);
    await shot(page, `leaderboard-club${phone ? '-phone' : ''}`);
    // Bots apart.
    await page.getByRole('link', { name: 'Bots' }).click();
    await page.waitForURL(/bots=true/);
    await page.getByRole('cell', { name: 'robo (bot)' }).waitFor();
    assert.equal(await page.locator('table.leaderboard tbody tr').count(), 2);
    // The small band: one game each is not enough yet.
    await page.getByRole('link', { name: /^small/ }).click();
    await page.waitForURL(/band=small/);
    await page.getByText('Nobody qualifies yet.').waitFor();
    assert.deepEqual(errors, []);
    await ctx.close();
  }

  // A profile: both of Ana's pools, each with a chart whose axes carry values.
  const ctx = await context(w);
  const page = await ctx.newPage();
  await page.goto('/players/ana');
  const ratings = page.getByRole('region', { name: 'ratings' });
  await ratings.getByRole('heading', { name: /Flipstop, small boards \(3.7\)/ }).waitFor();
  await ratings.getByRole('heading', { name: /Flipstop, standard boards \(8.11\)/ }).waitFor();
  const standardChart = ratings.locator('div.rating').nth(1).locator('svg.rating-chart');
  const values = await standardChart.locator('text.axis-value').allTextContents();
  assert.ok(values.length >= 3, String(values));
  assert.ok(values.slice(0, 2).every((v) => /^\d{3,4}$/.test(v)), String(values));
  assert.equal(await standardChart.locator('circle').count(), 6);
  await shot(page, 'profile-pools');
  // The players' list.
  await page.goto('/players');
  const list = page.getByRole('table', { name: 'players' });
  await list.waitFor();
  const players = await list.locator('tbody tr td:first-child').allTextContents();
  assert.deepEqual([...players].sort(), [...names, 'robo (bot)', 'rubi (bot)'].sort());
  await shot(page, 'players');
  await ctx.close();

  // The form: Swaptimum 4x4 is proven, so "Rated" is off and says why; 6x6 is rated again.
  const form = await context(w);
  const formPage = await form.newPage();
  await enter(formPage, 'eli');
  await formPage.goto('/new');
  await formPage.getByLabel('Game').selectOption('swaptimum');
  await formPage.getByLabel('Opponent').selectOption('open');
  await formPage.getByLabel('Board size').fill('4');
  const rated = formPage.getByRole('checkbox', { name: /Rated/ });
  assert.equal(await rated.isDisabled(), true);
  assert.equal(await rated.isChecked(), false);
  await formPage.getByText('the solver has proved who wins from the start').waitFor();
  await shot(formPage, 'new-game-proven');
  await formPage.getByRole('button', { name: 'Create the game' }).click();
  await formPage.waitForURL(/\/games\/[0-9a-zA-Z_-]+$/);
  await formPage.getByLabel('Board size').waitFor({ state: 'detached' });
  const id = new URL(formPage.url()).pathname.split('/')[2];
  const created = await call<{ rated: boolean }>(w, t('ana'), 'GET', `/api/games/${id}`);
  assert.equal(created.rated, false);
  await formPage.goto('/new');
  await formPage.getByLabel('Game').selectOption('swaptimum');
  await formPage.getByLabel('Opponent').selectOption('open');
  await formPage.getByLabel('Board size').fill('6');
  assert.equal(await formPage.getByRole('checkbox', { name: /Rated/ }).isChecked(), true);
  await form.close();
});
