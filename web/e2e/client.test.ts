// End-to-end: the client in Chromium against a real server.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';

import { call, cell, context, createGame, enter, player, plies, shot, token, useWorld, waitForPlies } from './harness';

const world = useWorld();

test('sign up, play Swaptimum against a person: a refused click, a swap, review, reload', async () => {
  const { ctx, page } = await player(world(), 'ann');
  // Whatever the page does must stay within its Content-Security-Policy.
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await shot(page, 'home-desktop');
  const bob = await token(world(), 'bob');
  const id = await createGame(page, { game: 'swaptimum', size: 5, colour: 'first', opponent: 'user', player: 'bob' });
  await call(world(), bob, 'POST', `/api/games/${id}/join`, {});
  await page.getByText('Your move.').waitFor();
  // Against a person, but on a board the solver has proved (Swaptimum 5x5): unrated, with no
  // rating shown (e2e/profile.test.ts shows a rated game's ratings).
  assert.equal((await call<{ rated: boolean }>(world(), bob, 'GET', `/api/games/${id}`)).rated, false);
  assert.equal(await page.locator('.players .game-rating').count(), 0);
  await cell(page, 'b2').click();
  await page.getByText('bob to move.').waitFor();
  // bob's moves arrive over the socket, without a reload.
  await call(world(), bob, 'POST', `/api/games/${id}/moves`, { move: 'a2', ply: 1 });
  await page.locator('ol.moves li', { hasText: 'a2' }).waitFor();
  // A refused click: the reason is shown at once.
  await cell(page, 'a2').click();
  const refusal = page.locator('.refusal');
  await refusal.filter({ hasText: /./ }).waitFor();
  assert.match((await refusal.textContent()) ?? '', /a2/);
  // A move typed in the contract's notation.
  await page.getByLabel('Type a move').fill('d4');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('ol.moves li', { hasText: 'd4' }).waitFor();
  await call(world(), bob, 'POST', `/api/games/${id}/moves`, { move: 'b1', ply: 3 });
  await page.locator('ol.moves li', { hasText: 'b1' }).waitFor();
  // a1 forms a crosscut: the builder asks for the swap and highlights the partners.
  await cell(page, 'a1').click();
  await page.locator('.prompt', { hasText: 'crosscut' }).waitFor();
  const offered = page.locator('svg.board g.next');
  assert.ok((await offered.count()) >= 2, 'swap partners are highlighted');
  assert.match((await cell(page, 'a1').getAttribute('aria-label')) ?? '', /^a1, empty, chosen/);
  await offered.first().click();
  await page.locator('.prompt', { hasText: 'with which checker' }).waitFor();
  await page.locator('svg.board g.next').first().click();
  await page.getByText('bob to move.').waitFor();
  const last = (await page.locator('ol.moves button[data-ply]').last().textContent()) ?? '';
  assert.match(last, /a1:/, `a swap was played: ${last}`);
  assert.equal(await plies(page), 5);
  await shot(page, 'game-desktop');

  // Review by keys: Home shows the start, Right the first move; the game is unchanged.
  await page.locator('h1').click();
  await page.keyboard.press('Home');
  await page.locator('.shown', { hasText: 'The start position.' }).waitFor();
  assert.equal(await cell(page, 'b2').getAttribute('aria-label'), 'b2, empty');
  await page.keyboard.press('ArrowRight');
  await page.locator('.shown', { hasText: 'After ply 1' }).waitFor();
  assert.match((await cell(page, 'b2').getAttribute('aria-label')) ?? '', /^b2, Red/);
  assert.match(page.url(), /ply=1/);
  // The picture downloaded is that of the ply shown.
  const [picture] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download this position (SVG)' }).click(),
  ]);
  assert.equal(picture.suggestedFilename(), `swapboard-${id}-ply1.svg`);
  const [record] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the record' }).click()]);
  assert.equal(record.suggestedFilename(), `swapboard-${id}.txt`);
  // A reload keeps the page and the ply shown.
  await page.reload();
  await page.locator('.shown', { hasText: 'After ply 1' }).waitFor();
  await page.keyboard.press('End');
  await page.locator('.shown', { hasText: 'After ply 5' }).waitFor();
  assert.doesNotMatch(page.url(), /ply=/);
  assert.deepEqual(errors.filter((e) => /Content.Security.Policy/i.test(e)), []);

  // Scware as Red: while neither player has grown, a growth may end with a new group (`+`).
  // Challenged unrated (the form's box unchecked): the game is unrated and shows no rating.
  const scware = await createGame(page, { game: 'scware', size: 5, colour: 'second', opponent: 'user', player: 'bob', rated: false });
  await call(world(), bob, 'POST', `/api/games/${scware}/join`, {});
  assert.equal((await call<{ rated: boolean }>(world(), bob, 'GET', `/api/games/${scware}`)).rated, false);
  await call(world(), bob, 'POST', `/api/games/${scware}/moves`, { move: 'a1', ply: 0 });
  await page.getByText('Your move.').waitFor();
  await cell(page, 'e5').click();
  await page.locator('ol.moves li', { hasText: 'e5' }).waitFor();
  await call(world(), bob, 'POST', `/api/games/${scware}/moves`, { move: 'a3', ply: 2 });
  await page.locator('ol.moves li', { hasText: 'a3' }).waitFor();
  await cell(page, 'e4').click();
  await page.getByRole('button', { name: '+ new group' }).click();
  await page.locator('svg.board g.next[data-cell="c1"]').click();
  await page.locator('ol.moves li', { hasText: 'e4+c1' }).waitFor();
  await shot(page, 'scware-balancing-desktop');
  await ctx.close();
});

test('against the AI: Scware multi-group growth and a Rapid Transit swap, replies arrive live', async () => {
  const { ctx, page } = await player(world(), 'cat');
  // The AI never plays rated: the form offers no Rated box against it (its default).
  await page.goto('/new');
  await page.getByLabel('Opponent').waitFor();
  assert.equal(await page.getByLabel('Rated').isVisible(), false);
  // Rapid Transit: every move is a swap of a terminal piece with a partner.
  await createGame(page, { game: 'rapid-transit', size: 6, colour: 'first', opponent: 'ai', level: 1 });
  for (let move = 0; move < 2; move += 1) {
    await page.getByText('Your move.').waitFor({ timeout: 30_000 });
    const before = await plies(page);
    // The turn starts with the movable terminal pieces marked: one, then its partner.
    const movable = page.locator('svg.board g.next');
    await movable.first().waitFor();
    assert.match((await movable.first().getAttribute('aria-label')) ?? '', /Red.*terminal piece/);
    await movable.first().click();
    await page.locator('svg.board g.chosen').first().waitFor();
    await page.locator('svg.board g.next').first().click();
    // Our swap, then the AI's reply, arrive in the move list.
    await waitForPlies(page, before + 2);
  }
  assert.match((await page.locator('ol.moves button[data-ply]').first().textContent()) ?? '', /-/);
  await shot(page, 'rapid-transit-desktop');
  // Resigning asks first; the finished game then offers its analysis.
  await page.getByRole('button', { name: 'Resign' }).click();
  await page.getByRole('button', { name: 'Yes, resign' }).click();
  // The ending in words, to the player who resigned (the server's `how`).
  await page.locator('.status', { hasText: 'You lost by resignation.' }).waitFor();
  await page.getByRole('button', { name: 'Best moves here' }).click();
  // Whatever the server answers (lines, or why it cannot), it is shown.
  await page.locator('.analysis-out', { hasText: /./ }).filter({ hasNotText: 'Thinking' }).waitFor();

  // Scware: two new groups, then one growth of both.
  await createGame(page, { game: 'scware', size: 7, colour: 'first', opponent: 'ai', level: 1 });
  const placed: string[] = [];
  for (const wanted of [['a1', 'b1', 'a2'], ['g7', 'f7', 'g6', 'e7', 'g5']]) {
    await page.getByText('Your move.').waitFor({ timeout: 30_000 });
    const before = await plies(page);
    for (const name of wanted) {
      if ((await cell(page, name).getAttribute('aria-label'))?.includes('empty')) {
        await cell(page, name).click();
        placed.push(name);
        break;
      }
    }
    await waitForPlies(page, before + 2);
  }
  await page.getByText('Your move.').waitFor({ timeout: 30_000 });
  // A cell next to one group (offered at the start of the turn) starts a growth; the builder
  // then offers the other group's cells.
  await page.locator('svg.board g.next').first().waitFor();
  let grown = false;
  for (const name of ['b1', 'a2', 'f7', 'g6']) {
    if (!((await cell(page, name).getAttribute('class')) ?? '').includes('next')) continue;
    await cell(page, name).click();
    await page.locator('.controls button', { hasText: 'Play' }).waitFor();
    // The other group's cell: with both groups grown nothing more can be added, so the
    // growth of two groups is played at once (checked in the move list below).
    await page.locator('svg.board g.next').first().click();
    grown = true;
    break;
  }
  assert.ok(grown, `a multi-group growth after ${placed.join(' ')}`);
  await page.waitForFunction(() => [...document.querySelectorAll('ol.moves li .mv')].some((e) => /,/.test(e.textContent ?? '')));
  await shot(page, 'scware-desktop');
  await ctx.close();
});

test('two players in two browsers play a live game to the end', async () => {
  const [one, two] = [await context(world()), await context(world())];
  const ann = await one.newPage();
  const dan = await two.newPage();
  await enter(ann, 'eve');
  await enter(dan, 'dan');
  const id = await createGame(ann, { game: 'swaptimum', size: 3, colour: 'first', opponent: 'open' });
  await dan.goto('/');
  await dan.locator('li.game-item', { hasText: 'eve' }).waitFor();
  await shot(dan, 'lobby-desktop');
  await dan.locator('li.game-item', { hasText: 'eve' }).getByRole('button', { name: 'Join' }).click();
  await dan.waitForURL(`**/games/${id}`);
  await ann.getByText('Your move.').waitFor();
  // The first move by keyboard alone: the board's one tabbable cell (its centre, b2), down, Enter.
  await ann.getByText('Your move.').waitFor();
  // Every empty cell can start a move on an empty board, and says so.
  await ann.locator('svg.board g.next').first().waitFor();
  await ann.locator('svg.board [tabindex="0"]').focus();
  await ann.keyboard.press('ArrowDown');
  assert.equal(await ann.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'b1, empty, may come next');
  await ann.keyboard.press('Enter');
  await dan.locator('ol.moves li', { hasText: 'b1' }).waitFor();
  // The live region tells a screen reader what happened and where everything stands.
  await dan.locator('.sr-only', { hasText: 'Red b1: placed b1 3 by 3 board. Red (R): b1. Blue (B): none.' }).waitFor();
  for (const [page, name, other] of [[dan, 'a1', ann], [ann, 'b2', dan], [dan, 'a2', ann], [ann, 'b3', dan]] as const) {
    await page.getByText('Your move.').waitFor();
    await cell(page, name).click();
    await other.locator('ol.moves li', { hasText: name }).waitFor();
  }
  for (const page of [ann, dan]) {
    await page.locator('.status', { hasText: /^You (won|lost) by connection/ }).waitFor();
    assert.match((await cell(page, 'b2').getAttribute('aria-label')) ?? '', /winning path/);
  }
  await shot(dan, 'finished-desktop');
  await one.close();
  await two.close();
});

test('a phone-sized screen plays by touch with the confirm step', async () => {
  const ctx = await context(world(), true);
  const page = await ctx.newPage();
  // The server allows five sign-ups an hour from one address: this one logs in.
  await enter(page, 'cat', 'Log in');
  await shot(page, 'home-phone');
  await createGame(page, { game: 'flipstop', size: 5, colour: 'first', opponent: 'ai', level: 1, minutes: 5 });
  await page.getByText('Your move.').waitFor();
  // The clocks: 5 minutes each, ours running down from the server's time.
  const mine = page.locator('#clock-0.running');
  await mine.waitFor();
  await page.waitForFunction(() => /^4:5\d$/.test(document.getElementById('clock-0')?.textContent ?? ''));
  assert.equal(await page.locator('#clock-1').textContent(), '5:00');
  await cell(page, 'c3').tap();
  await page.getByRole('button', { name: 'Confirm c3' }).tap();
  await page.locator('ol.moves li', { hasText: 'c3' }).waitFor();
  await waitForPlies(page, 2);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `no sideways scrolling: ${width}`);
  await shot(page, 'game-phone');
  await page.goto('/new');
  await shot(page, 'new-phone');
  await ctx.close();
});
