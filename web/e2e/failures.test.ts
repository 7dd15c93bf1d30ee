// End-to-end: a server that goes away and comes back, an expired session, and the figures
// the issue sets (a 26 x 26 redraw within a frame, the move builder within 50 ms).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { BINARY, call, createGame, logIn, player, shot, submitAccount, token, useWorld } from './harness';

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
  // Lost while a page loads (home asks for the player's turns): the login form, not an error.
  await ctx.clearCookies();
  await page.getByRole('link', { name: 'Home' }).click();
  await page.waitForURL('**/login?next=%2F');
  await submitAccount(page, 'hal', 'Log in');
  await page.getByRole('heading', { name: 'Your turn' }).waitFor();
  // Lost before a form is sent: back to the form after the login.
  await page.goto('/new');
  await ctx.clearCookies();
  await page.getByRole('button', { name: 'Create the game' }).click();
  await page.waitForURL('**/login?next=%2Fnew');
  await submitAccount(page, 'hal', 'Log in');
  await page.waitForURL('**/new');
  await page.getByRole('heading', { name: 'New game' }).waitFor();
  await ctx.close();
});

test('a login ended elsewhere (a password changed) closes the inbox socket and leads to log in', async () => {
  const { ctx, page } = await player(world(), 'uma');
  const elsewhere = await logIn(world(), 'uma');
  await call(world(), elsewhere, 'PUT', '/api/me/password', { password: 'correct horse', new_password: 'battery staple' });
  // No click: the server closes the page's inbox socket, and the page goes to log in.
  await page.waitForURL('**/login?next=%2F', { timeout: 5_000 });
  await submitAccount(page, 'uma', 'Log in', 'battery staple');
  await page.getByRole('heading', { name: 'Your turn' }).waitFor();
  await ctx.close();
});

/** The part of a game these tests read. */
interface Game {
  ply: number;
  position: string;
  to_move: string | null;
  status: string;
}

test('a crowded 26 x 26 Scware board redraws within a frame and the move builder answers within 50 ms', async () => {
  const { ctx, page } = await player(world(), 'ida');
  const jo = await token(world(), 'jo');
  // ida's own token (the sign-up is refused, the login is not), to fill the board quickly.
  const ida = await token(world(), 'ida');
  const id = await createGame(page, { game: 'scware', size: 26, colour: 'first', opponent: 'user', player: 'jo' });
  let game = await call<Game>(world(), jo, 'POST', `/api/games/${id}/join`, {});
  // Random growths from the command's list of legal moves, until the board is crowded.
  let seed = 7;
  while ((game.ply < 240 || game.to_move !== 'ida') && game.status === 'playing') {
    const listed = execFileSync(BINARY, ['moves', game.position], { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n').filter((m) => m !== '');
    const growths = listed.filter((m) => m.includes(','));
    const pool = growths.length > 0 ? growths : listed;
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const move = pool[seed % Math.min(pool.length, 5000)];
    game = await call<Game>(world(), game.to_move === 'ida' ? ida : jo, 'POST', `/api/games/${id}/moves`, { move, ply: game.ply });
  }
  const rows = game.position.split(' ')[1].split('/').reverse();
  const stones = rows.join('').replace(/\./g, '').length;
  await page.reload();
  await page.getByText('Your move.').waitFor();
  const draws: number[] = [];
  // Redraws of other plies by the review keys: Home and End change every stone's cell.
  await page.locator('h1').click();
  for (const key of ['Home', 'End', 'ArrowLeft', 'End', 'Home', 'End']) {
    const before = await page.locator('.shown').textContent();
    await page.keyboard.press(key);
    await page.waitForFunction((text) => document.querySelector('.shown')?.textContent !== text, before);
    draws.push(Number(await page.locator('svg.board').getAttribute('data-draw-ms')));
  }
  await page.getByText('Your move.').waitFor();
  // Growth clicks: empty cells next to a White stone, from the click to the builder's answer drawn.
  const near = (col: number, row: number): boolean =>
    [[1, 0], [-1, 0], [0, 1], [0, -1]].some(([dc, dr]) => rows[row + dr]?.[col + dc] === 'W');
  const targets: string[] = [];
  rows.forEach((line, row) => [...line].forEach((c, col) => {
    if (c === '.' && near(col, row)) targets.push(String.fromCharCode(97 + col) + String(row + 1));
  }));
  const clicks: number[] = [];
  for (const name of targets.slice(0, 8)) {
    const ms = await page.evaluate(async (cellName) => {
      const target = document.querySelector(`svg.board [data-cell="${cellName}"]`);
      const refusal = document.querySelector('.refusal');
      if (!target || !refusal) return Infinity;
      refusal.textContent = '';
      const t0 = performance.now();
      const answered = new Promise<void>((done) => {
        const watch = new MutationObserver(() => {
          if (target.classList.contains('chosen') || refusal.textContent !== '') {
            watch.disconnect();
            done();
          }
        });
        watch.observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
      });
      target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await answered;
      return performance.now() - t0;
    }, name);
    clicks.push(ms);
    const clear = page.locator('.controls button', { hasText: 'Clear' });
    if ((await clear.count()) > 0) await clear.click();
  }
  console.log(`26x26 Scware, ${stones} stones: redraws (ms) ${draws.join(' ')}; builder clicks (ms) ${clicks.map((c) => c.toFixed(1)).join(' ')}`);
  assert.ok(stones > 400, `a crowded board: ${stones} stones`);
  // The times are figures for docs/PERFORMANCE.md, printed above, never a pass mark (CI
  // shares its cores): what is checked is that every redraw was timed and every click answered.
  assert.ok(draws.every((ms) => Number.isFinite(ms) && ms >= 0), `redraws ${draws.join(' ')}`);
  assert.ok(clicks.length > 0 && clicks.every(Number.isFinite), `clicks ${clicks.join(' ')}`);
  await shot(page, 'scware-26-desktop');
  await ctx.close();
});
