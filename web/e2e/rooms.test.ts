// End-to-end: a Swap 61 room in Chromium against a real server. A game master makes the
// room and starts it filled with bots, a player joined by the invite bids by text and by
// clicks, the game master resolves, both pages follow live; the public page shows no bid.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';

import { TILES, tileOf, touching } from '../src/swap61';
import type { RoomView } from '../src/swap61';
import { call, context, enter, player, shot, token, useWorld } from './harness';

const world = useWorld();

/** A tile of the room's live grid (not of a past round's picture). */
function tile(page: Page, name: string) {
  return page.locator(`.grid-side svg.hexgrid [data-cell="${name}"]`);
}

/** Two tiles touching `wall` that are not `wall` itself. */
function touchingTiles(wall: string): string[] {
  const at = tileOf(wall);
  assert.ok(at);
  return TILES.filter((t) => touching(at, t)).map((t) => t.name);
}

test('a room: invite, start with bots, bids by text and clicks, resolution live, nothing leaks to the public', async () => {
  const { ctx: gmCtx, page: gm } = await player(world(), 'gm');
  const errors: string[] = [];
  gm.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await gm.goto('/');
  await gm.getByRole('link', { name: 'run a room as its game master' }).click();
  await gm.getByLabel('Seats').selectOption('10');
  await gm.getByLabel('Round length (hours)').fill('1');
  await gm.getByLabel("Round 5's variation").selectOption('network');
  await gm.getByRole('button', { name: 'Create the room' }).click();
  await gm.waitForURL(/\/rooms\/(?!new$)[0-9a-zA-Z_-]+$/);
  const id = new URL(gm.url()).pathname.split('/')[2];
  await gm.getByText('Lobby: 0 of 10 joined').waitFor();
  const invite = await gm.getByLabel('Invite link').inputValue();
  assert.match(invite, new RegExp(`/rooms/${id}\\?invite=[0-9a-f]+$`));

  // The player joins by the invite link; the game master's page follows over the socket.
  const pia = await token(world(), 'pia');
  const piaCtx = await context(world());
  const page = await piaCtx.newPage();
  // From the first page on: the anonymous probe `GET /api/me` is a 200 with null, no 401.
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await enter(page, 'pia', 'Log in');
  await page.goto(invite);
  await page.getByRole('button', { name: 'Join this room' }).click();
  // The invite leaves the address once used.
  await page.waitForURL((url) => url.pathname === `/rooms/${id}` && url.search === '');
  await page.getByText('Lobby: 1 of 10 joined').waitFor();
  await gm.getByText('Lobby: 1 of 10 joined').waitFor();
  await shot(gm, 'room-lobby-desktop');

  assert.ok(await gm.getByLabel('Fill the empty seats with the bot').isChecked());
  await gm.getByRole('button', { name: 'Start the game' }).click();
  await gm.getByText(/The pregame is open/).waitFor();
  await page.getByText(/The pregame is open/).waitFor();
  await page.getByRole('heading', { name: /^You: seat P\d+$/ }).waitFor();

  // The player's own walls, as the server shows them to the player alone.
  const mine = await call<RoomView>(world(), pia, 'GET', `/api/rooms/${id}`);
  assert.ok(mine.you);
  const walls = mine.you.walls;
  assert.equal(walls.length, 5);
  const [w1, w2] = walls;
  const n1 = touchingTiles(w1)[0];
  const label = (await tile(page, w1).getAttribute('aria-label')) ?? '';
  assert.match(label, new RegExp(`^${w1}, wall of seat ${mine.you.seat} \\(pia\\), your wall$`));
  assert.equal(await tile(page, w1).getAttribute('role'), 'button');
  assert.equal(await page.locator(`.grid-side [data-cell="${w1}"] .outline.own`).count(), 1);

  // By text: one accepted line, one refused, and a comment that marks the text.
  const bids = page.getByLabel('Your bids (CELL CELL TOKENS, one a line)');
  await bids.fill(`# pia-secret-7f3a\n${w1} ${n1} 2\n${w1} ${w1} 1\n`);
  await page.getByRole('button', { name: 'Submit bids' }).click();
  const check = page.locator('.check-box');
  // The server writes an edge's tiles in its own order.
  const edge = (a: string, b: string): RegExp => new RegExp(`(${a} ${b}|${b} ${a}), 2 tokens, accepted`);
  await check.locator('li.accepted', { hasText: edge(w1, n1) }).waitFor();
  await check.locator('li.rejected', { hasText: 'line 3: rejected' }).waitFor();
  await check.getByText('Tokens: 2 of 4 placed.').waitFor();
  const receipt1 = (await check.locator('.receipt code').textContent()) ?? '';
  assert.match(receipt1, /^[0-9a-f]{64}$/);

  // By clicks: the second wall and a tile touching it add a line with the tokens per click.
  const n2 = touchingTiles(w2).find((t) => t !== w1) ?? '';
  await page.getByLabel('Tokens per click').fill('2');
  await tile(page, w2).click();
  await page.getByText(`${w2} chosen`).waitFor();
  assert.match((await tile(page, w2).getAttribute('aria-label')) ?? '', /, chosen$/);
  await tile(page, n2).click();
  await page.getByText(`Added ${w2} ${n2} 2.`).waitFor();
  assert.match(await bids.inputValue(), new RegExp(`\\n${w2} ${n2} 2\\n$`));
  await page.getByText('5 tokens written (allowance 4).').waitFor();
  // Take the refused line out, then send: two accepted lines, a new receipt.
  await bids.fill((await bids.inputValue()).replace(`${w1} ${w1} 1\n`, ''));
  await page.getByRole('button', { name: 'Submit bids' }).click();
  await check.getByText('Tokens: 4 of 4 placed.').waitFor();
  await check.locator('li.accepted', { hasText: edge(w2, n2) }).waitFor();
  const receipt2 = (await check.locator('.receipt code').textContent()) ?? '';
  assert.notEqual(receipt2, receipt1);
  await shot(page, 'room-player-desktop');

  // The game master sees every submission, the player's included, counted live.
  await gm.getByText('10 of 10 seats have submitted').waitFor();
  await gm.locator('.submissions pre', { hasText: 'pia-secret-7f3a' }).waitFor();
  await shot(gm, 'room-master-desktop');

  // The public: the room without a bid, a check or a receipt.
  const publicCtx = await context(world());
  const outsider = await publicCtx.newPage();
  await outsider.goto(`/rooms/${id}`);
  await outsider.getByText(/The pregame is open/).waitFor();
  const publicHtml = await outsider.content();
  for (const secret of ['pia-secret-7f3a', receipt1, receipt2, `${w2} ${n2} 2`]) {
    assert.ok(!publicHtml.includes(secret), `the public page shows ${secret}`);
  }
  assert.equal(await outsider.getByLabel('Your bids (CELL CELL TOKENS, one a line)').count(), 0);
  assert.equal(await outsider.locator('.console').isVisible(), false);

  // The game master resolves; every page follows over the socket.
  const clicked = Date.now();
  await gm.getByRole('button', { name: 'Resolve now' }).click();
  await page.getByText(/Round 1 is open/).waitFor({ timeout: 5000 });
  const followed = Date.now() - clicked;
  for (const p of [gm, page, outsider]) {
    await p.getByText(/Round 1 is open/).waitFor();
    await p.locator('.history summary', { hasText: 'The pregame' }).waitFor();
  }
  assert.equal(await page.locator('.check-box li').count(), 0, 'the new round starts with no submission');
  assert.equal(await bids.inputValue(), '');
  await page.getByText(/^Borrowed this round from P\d+ /).first().waitFor();
  assert.ok((await page.locator('.grid-side .outline.borrowed').count()) >= 5, 'borrowed walls are dashed');
  const after = await outsider.content();
  for (const secret of ['pia-secret-7f3a', receipt1, receipt2]) assert.ok(!after.includes(secret));
  await gm.getByRole('button', { name: 'Show the audit log' }).click();
  await gm.locator('.audit li', { hasText: 'resolved' }).waitFor();
  const post = await (await fetch(`${world().base}/api/rooms/${id}/rounds/0/post`)).text();
  assert.ok(!post.includes('pia-secret-7f3a'));
  // The keyboard: a click chooses A1, the arrow moves the focus to A2, Enter chooses it.
  await page.getByText('Click two touching tiles on the grid to add a bid.').waitFor();
  await tile(page, 'A1').click();
  await page.getByText('A1 chosen').waitFor();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-cell')), 'A2');
  await page.keyboard.press('Enter');
  await page.getByText('Added A1 A2 2.').waitFor();
  assert.equal(await bids.inputValue(), 'A1 A2 2\n');
  await shot(page, 'room-player-round1-desktop');

  // The game master's clock: pause and resume reach the player's page live; an extension
  // adds an hour to what is left.
  await gm.getByRole('button', { name: 'Pause the clock' }).click();
  await page.getByText("The round's clock is paused.").waitFor();
  await gm.getByRole('button', { name: 'Resume the clock' }).click();
  await page.getByText(/^Resolves in 59:\d\d\.$|^Resolves in 1:00:00\.$/).waitFor();
  await gm.getByLabel('Minutes to add').fill('60');
  await gm.getByRole('button', { name: 'Extend the deadline' }).click();
  await page.getByText(/^Resolves in 1:59:\d\d\.$|^Resolves in 2:00:00\.$/).waitFor();
  const [file] = await Promise.all([gm.waitForEvent('download'), gm.getByRole('link', { name: 'Download the game file' }).click()]);
  assert.equal(file.suggestedFilename(), `swap61-${id}.json`);
  // The game file holds every submission: the game master's alone.
  assert.match(readFileSync(await file.path(), 'utf8'), /pia-secret-7f3a/);

  // The only person playing marks round 1 final (an empty submission): it resolves at once.
  await page.getByRole('button', { name: 'Mark final' }).click();
  for (const p of [gm, page, outsider]) {
    await p.getByText(/Round 2 is open/).waitFor();
    await p.locator('.history summary', { hasText: 'Round 1' }).waitFor();
  }
  await outsider.locator('.history .scores').first().waitFor();
  await shot(outsider, 'room-public-desktop');

  // The game master gives a bot's seat to a person, then takes round 1 back.
  const quinn = await token(world(), 'quinn');
  const botSeat = mine.seats.find((seat) => seat.bot);
  assert.ok(botSeat);
  await gm.getByRole('combobox', { name: /^Seat/ }).selectOption(String(botSeat.seat));
  await gm.getByLabel('Account', { exact: true }).fill('quinn');
  await gm.getByRole('button', { name: 'Give the seat to the account' }).click();
  await outsider.locator('.standings td', { hasText: /^quinn$/ }).waitFor();
  const quinnView = await call<RoomView>(world(), quinn, 'GET', `/api/rooms/${id}`);
  assert.equal(quinnView.you?.seat, botSeat.seat);
  await gm.getByRole('button', { name: 'Undo the last resolution' }).click();
  await gm.getByRole('button', { name: 'Yes, undo it' }).click();
  for (const p of [gm, page, outsider]) await p.getByText(/Round 1 is open/).waitFor();
  assert.equal(await outsider.locator('.history summary', { hasText: 'Round 1' }).count(), 0);

  // A phone: the player's page stacks and does not scroll sideways.
  const phoneCtx = await context(world(), true);
  const phone = await phoneCtx.newPage();
  await enter(phone, 'pia', 'Log in');
  await phone.goto(`/rooms/${id}`);
  await phone.getByRole('heading', { name: /^You: seat P\d+$/ }).waitFor();
  const wide = await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  assert.equal(wide, false, 'the phone page scrolls sideways');
  const box = await tile(phone, 'E5').boundingBox();
  assert.ok(box);
  console.log(`room: a tile on a 360 px phone is ${box.width.toFixed(0)} x ${box.height.toFixed(0)} px`);
  assert.ok(box.width >= 44 && box.height >= 44, 'a touch target of 44 px at least');
  await tile(phone, w1).tap();
  await phone.getByText(`${w1} chosen`).waitFor();
  await shot(phone, 'room-player-phone');

  console.log(`room: "Resolve now" clicked to the player's page on round 1 (socket, own view read again, redrawn): ${followed} ms`);
  // The home page lists each one's rooms: the game master's and the player's seat.
  for (const [who, part] of [[gm, 'you are the game master'], [page, 'game master gm']] as const) {
    await who.goto('/');
    await who.locator('section[aria-labelledby="rooms-h"] li', { hasText: id }).filter({ hasText: part }).waitFor();
  }
  assert.deepEqual(errors, []);
  for (const c of [gmCtx, piaCtx, publicCtx, phoneCtx]) await c.close();
});
