// End-to-end: a turn as a player meets it (issue 22). A Rapid Transit game finished by
// clicks alone, its forced passes played by the server; a Scware growth of several groups
// built at 1280x800 with every control in the window, kept across a reload; the layouts
// at 1280x800, 1366x768 and 375x740. (The server allows five sign-ups an hour from one
// address: the endings are in endings.test.ts, with a server of their own.)

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import type { Page } from 'playwright-core';

import { apiGame, BINARY, call, cell, createGame, enter, plies, shot, token, useWorld, waitForPlies, type World } from './harness';
import type { GameView } from '../src/types';

const world = useWorld();

/** Every legal move of a position, as `swapboard moves` lists them. */
function legal(position: string): string[] {
  const run = spawnSync(BINARY, ['moves', position], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split('\n').filter((line) => line !== '');
}

/** A small deterministic generator (mulberry32), so that a game is the same every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Plays a game through the API, `choose` picking among the legal moves at each ply, until
 * it ends or `stop` plies are played; answers the game then. A forced pass is the
 * server's: the game is never left waiting for one.
 */
async function playThrough(
  w: World, id: string, tokens: Record<string, string>, choose: (moves: string[], ply: number) => string, stop = Infinity,
): Promise<GameView> {
  const read = (): Promise<GameView> => call<GameView>(w, Object.values(tokens)[0], 'GET', `/api/games/${id}`);
  for (;;) {
    const game = await read();
    if (game.status !== 'playing' || game.ply >= stop) return game;
    const moves = legal(game.position);
    // The server plays a forced pass in the transaction of the move before it.
    assert.notDeepEqual(moves, ['pass'], `ply ${game.ply}: a forced pass left to the player`);
    const move = choose(moves, game.ply);
    await call(w, tokens[game.to_move ?? ''], 'POST', `/api/games/${id}/moves`, { move, ply: game.ply });
  }
}

/**
 * The controls of a turn that lie outside the window (none: all of them are in it), and
 * how far down the lowest one ends.
 */
async function outsideView(page: Page, selectors: string[]): Promise<{ outside: string[]; bottom: number }> {
  const size = page.viewportSize();
  assert.ok(size);
  const outside: string[] = [];
  let bottom = 0;
  for (const selector of selectors) {
    const box = await page.locator(selector).first().boundingBox();
    if (!box) {
      outside.push(`${selector}: not shown`);
      continue;
    }
    bottom = Math.max(bottom, box.y + box.height);
    const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width + 0.5 && box.y + box.height <= size.height + 0.5;
    if (!inside) outside.push(`${selector}: ${JSON.stringify(box)} outside ${size.width}x${size.height}`);
  }
  return { outside, bottom };
}

test('Rapid Transit to its end by clicks only: movable terminals marked, forced passes played by the server', async () => {
  const w = world();
  const [ria, rob] = [await token(w, 'ria'), await token(w, 'rob')];
  const tokens = { ria, rob };
  // A whole game played by the API first, to know its moves: the one by clicks replays it.
  let played: string[] = [];
  for (let seed = 1; played.length === 0; seed += 1) {
    assert.ok(seed < 20, 'a seeded game of Rapid Transit 8x8 that ends within 400 plies');
    const rng = random(seed);
    const trial = await apiGame(w, ria, rob, { game: 'rapid-transit', size: 8, opponent: 'user:rob' });
    const done = await playThrough(w, trial, tokens, (moves) => moves[Math.floor(rng() * moves.length)], 400);
    if (done.status === 'finished') played = done.moves;
  }
  // A game ends on two passes in a row: the last swaps and both passes are left to the page.
  let lastSwap = played.length - 1;
  while (lastSwap > 0 && played[lastSwap] === 'pass') lastSwap -= 1;
  const clicksFrom = Math.max(0, lastSwap - 9);
  const id = await apiGame(w, ria, rob, { game: 'rapid-transit', size: 8, opponent: 'user:rob' });
  await playThrough(w, id, tokens, (moves, ply) => {
    assert.ok(moves.includes(played[ply]), `${played[ply]} replays at ply ${ply + 1}`);
    return played[ply];
  }, clicksFrom);
  const ctx = await w.browser.newContext({ baseURL: w.base, viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await enter(page, 'ria', 'Log in');
  await page.goto(`/games/${id}`);
  let clicked = 0;
  for (;;) {
    const game = await call<GameView>(w, ria, 'GET', `/api/games/${id}`);
    if (game.status === 'finished') break;
    const move = played[game.ply];
    if (game.to_move === 'rob') {
      // rob's swaps by the API; his forced passes the server's own.
      if (move !== 'pass') await call(w, rob, 'POST', `/api/games/${id}/moves`, { move, ply: game.ply });
      else await page.waitForFunction((ply) => document.querySelectorAll('ol.moves button[data-ply]').length > ply, game.ply, { timeout: 10_000 });
      continue;
    }
    // Our turn never waits for a click on a pass: the server plays a forced one itself.
    assert.notEqual(move, 'pass', `ply ${game.ply + 1}: a forced pass is the server's`);
    await page.getByText('Your move.').waitFor();
    const [terminal, partner] = move.split('-');
    // At the start of the turn only the movable terminals are marked, and the legend says so.
    await page.locator(`svg.board g.next[data-cell="${terminal}"]`).waitFor();
    const marked = await page.locator('svg.board g.next').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-cell')));
    for (const name of marked) assert.ok(legal(game.position).some((m) => m.startsWith(`${name}-`)), `${name} is marked but cannot move`);
    await page.locator('.board-legend [data-legend="next"]', { hasText: 'terminal' }).waitFor();
    await page.locator('.board-legend [data-legend="terminal"]', { hasText: 'terminal piece' }).waitFor();
    if (clicked === 0) await shot(page, 'rapid-transit-turn-1280x800');
    await cell(page, terminal).click();
    await page.locator(`svg.board g.next[data-cell="${partner}"]`).click();
    await waitForPlies(page, game.ply + 1);
    clicked += 1;
  }
  assert.ok(clicked >= 1, 'at least one swap by clicks');
  const after = await call<GameView>(w, ria, 'GET', `/api/games/${id}`);
  assert.deepEqual(after.moves.slice(-2), ['pass', 'pass']);
  assert.deepEqual(after.moves, played);
  // The passes are plies of the move list, in the server's words; the ending names its rule.
  await page.locator('ol.moves button[data-ply]', { hasText: 'pass' }).first().waitFor();
  await page.locator('.status', { hasText: /^You (won|lost) by the largest network/ }).waitFor();
  await shot(page, 'rapid-transit-finished-1280x800');
  console.log(`Rapid Transit 8x8: ${played.length} plies, the last ${played.length - clicksFrom} from the page (${clicked} swaps clicked)`);
  await ctx.close();
});

test('Scware at 1280x800: a growth of two groups built by clicks, every control in the window, kept across a reload', async () => {
  const w = world();
  const ctx = await w.browser.newContext({ baseURL: w.base, viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await enter(page, 'sue');
  const sid = await token(w, 'sid');
  const id = await createGame(page, { game: 'scware', size: 7, colour: 'first', opponent: 'user', player: 'sid', minutes: 10 });
  await call(w, sid, 'POST', `/api/games/${id}/join`, {});
  // Three groups of sue's in three corners (so that a growth of two leaves one to add, and
  // the move waits for Play); sid's stones in the middle.
  for (const [mine, theirs] of [['a1', 'd4'], ['g7', 'd3'], ['a7', 'd5']]) {
    await page.getByText('Your move.').waitFor();
    await cell(page, mine).click();
    await page.getByText('sid to move.').waitFor();
    const game = await call<GameView>(w, sid, 'GET', `/api/games/${id}`);
    const move = legal(game.position).find((m) => m === theirs) ?? legal(game.position).find((m) => /^[cde][2-6]$/.test(m));
    assert.ok(move, 'a White stone in the middle');
    await call(w, sid, 'POST', `/api/games/${id}/moves`, { move, ply: game.ply });
  }
  await page.getByText('Your move.').waitFor();
  // The start of the turn: the cells that can start a move are marked.
  await page.locator('svg.board g.next').first().waitFor();
  // An occupied cell says why it cannot be used.
  await cell(page, 'd4').click();
  await page.locator('.refusal', { hasText: /./ }).waitFor();
  // The growth's first stone, by the first group: a ghost stone of Red's.
  await cell(page, 'b1').click();
  await page.locator('svg.board g.ghost[data-cell="b1"]').waitFor();
  await page.locator('.board-legend [data-legend="ghost"]').waitFor();
  // A reload keeps the move being built.
  await page.reload();
  await page.locator('svg.board g.ghost[data-cell="b1"]').waitFor();
  const offered = await page.locator('svg.board g.next').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-cell') ?? ''));
  const far = offered.find((name) => /^[efg]/.test(name));
  assert.ok(far, `a cell by the second group is offered: ${offered.join(' ')}`);
  await cell(page, far).click();
  await page.locator(`svg.board g.ghost[data-cell="${far}"]`).waitFor();
  const play = page.locator('.controls button', { hasText: /^Play [a-z0-9]+,[a-z0-9]+$/ });
  await play.waitFor();
  // Everything the turn needs is in the window together.
  await cell(page, 'd3').click();
  await page.locator('.refusal', { hasText: /./ }).waitFor();
  await page.locator(`svg.board g.ghost[data-cell="${far}"]`).waitFor();
  const controls = ['svg.board', '.prompt', '.refusal', '#clock-0', '#clock-1', '.controls button >> text=/^Play/', '.controls button >> text=Clear', '.board-legend'];
  const wide = await outsideView(page, controls);
  assert.deepEqual(wide.outside, []);
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await shot(page, 'scware-growth-1280x800');
  await page.setViewportSize({ width: 1366, height: 768 });
  const laptop = await outsideView(page, controls);
  assert.deepEqual(laptop.outside, []);
  console.log(`Scware 7x7 turn: the lowest control ends at y=${wide.bottom.toFixed(0)} of 800 (1280x800), y=${laptop.bottom.toFixed(0)} of 768 (1366x768)`);
  await shot(page, 'scware-growth-1366x768');
  await play.click();
  await page.waitForFunction(() => [...document.querySelectorAll('ol.moves button[data-ply] .mv')].some((e) => /,/.test(e.textContent ?? '')));
  // The move list is paired by move number: 1. a1 d4 / 2. g7 d3 / 3. a7 d5 / 4. b1,...
  const rows = await page.locator('ol.moves li').evaluateAll((items) => items.map((li) => li.querySelector('.num')?.textContent));
  assert.deepEqual(rows, ['1.', '2.', '3.', '4.']);
  assert.equal(await plies(page), 7);
  // A phone opens on the board.
  const phone = await w.browser.newContext({ baseURL: w.base, viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const small = await phone.newPage();
  await enter(small, 'sue', 'Log in');
  await small.goto(`/games/${id}`);
  await small.locator('ol.moves button[data-ply]').nth(4).waitFor();
  const board = await small.locator('svg.board').boundingBox();
  assert.ok(board && board.y < 740 && board.y >= 0, `the board is on the first screen: ${JSON.stringify(board)}`);
  console.log(`375x740 phone: the board from y=${board.y.toFixed(0)} to y=${(board.y + board.height).toFixed(0)}`);
  assert.equal(await small.evaluate(() => window.scrollY), 0);
  assert.ok(await small.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
  await small.screenshot({ path: 'test-results/scware-375x740.png' });
  await phone.close();
  await ctx.close();
});
