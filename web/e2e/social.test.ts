// End-to-end: invite links, rematches and the analysis of finished games (issue 15's
// endpoints) through the client.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cell, context, createGame, enter, shot, useWorld } from './harness';

const world = useWorld();

test('an invite link seats a friend; the finished game is analysed, reviewed and rematched', async () => {
  const [one, two] = [await context(world()), await context(world())];
  const ann = await one.newPage();
  const bob = await two.newPage();
  await enter(ann, 'ann');
  await enter(bob, 'bob');
  const id = await createGame(ann, { game: 'swaptimum', size: 3, colour: 'first', opponent: 'invite' });
  const link = await ann.getByLabel('Invite link').inputValue();
  assert.match(link, new RegExp(`/games/${id}\\?invite=[0-9a-f]+$`));
  await shot(ann, 'invite-desktop');
  await bob.goto(link);
  await bob.getByRole('button', { name: 'Join this game' }).click();
  await ann.getByText('Your move.').waitFor();
  for (const [page, name, other] of [[ann, 'b1', bob], [bob, 'a1', ann], [ann, 'b2', bob], [bob, 'a2', ann], [ann, 'b3', bob]] as const) {
    await page.getByText('Your move.').waitFor();
    await cell(page, name).click();
    await other.locator('ol.moves li', { hasText: name }).waitFor();
  }
  await ann.locator('.status', { hasText: 'You won by connection.' }).waitFor();
  // The analysis of the position shown, and the review of every move.
  await ann.locator('h1').click();
  await ann.keyboard.press('Home');
  await ann.locator('.shown', { hasText: 'The start position.' }).waitFor();
  await ann.getByRole('button', { name: 'Best moves here' }).click();
  await ann.locator('.analysis-out table tbody tr').first().waitFor({ timeout: 60_000 });
  await ann.getByRole('button', { name: 'Review the whole game' }).click();
  await ann.locator('.analysis-out table th', { hasText: 'Judgement' }).waitFor({ timeout: 120_000 });
  assert.equal(await ann.locator('.analysis-out table.review tbody tr').count(), 5);
  assert.equal(await ann.locator('.analysis-out .review-summary tbody tr').count(), 2);
  await shot(ann, 'analysis-desktop');
  // The rematch: ann offers it, bob takes it; colours are swapped.
  await ann.getByRole('button', { name: 'Rematch' }).click();
  await ann.waitForURL((url) => url.pathname.startsWith('/games/') && !url.pathname.endsWith(id));
  const rematch = new URL(ann.url()).pathname.split('/')[2];
  await bob.reload();
  await bob.locator('.offer', { hasText: 'ann offers a rematch' }).waitFor();
  await bob.getByRole('button', { name: 'Accept' }).click();
  await bob.waitForURL(`**/games/${rematch}`);
  await bob.getByText('Your move.').waitFor();
  assert.match((await bob.locator('.players .player').first().textContent()) ?? '', /bob/);
  await one.close();
  await two.close();
});

test('a direct challenge is declined with a reason, another cancelled, each side seeing it', async () => {
  const [one, two] = [await context(world()), await context(world())];
  const ann = await one.newPage();
  const bob = await two.newPage();
  await enter(ann, 'ann2');
  await enter(bob, 'bob2');
  // ann challenges bob2 from his profile (the form comes with his name): bob2 may decline
  // it, with words for her.
  await ann.goto('/players/bob2');
  await ann.getByRole('link', { name: 'Challenge bob2' }).click();
  await ann.waitForURL('**/new?challenge=bob2');
  assert.equal(await ann.getByLabel('Player name').inputValue(), 'bob2');
  await ann.getByLabel('Board size').fill('3');
  await ann.getByRole('button', { name: 'Create the game' }).click();
  await ann.waitForURL(/\/games\/[0-9a-zA-Z_-]+$/);
  const declined = new URL(ann.url()).pathname.split('/')[2];
  await ann.getByRole('button', { name: 'Cancel this challenge' }).waitFor();
  await ann.locator('.expires', { hasText: 'Open until' }).waitFor();
  // bob2 finds it on his Home (it is in no lobby).
  await bob.goto('/');
  await bob.locator(`section[aria-labelledby="challenges-h"] a[href="/games/${declined}"]`).click();
  await bob.waitForURL(`**/games/${declined}`);
  await bob.getByLabel('Reason').fill('not today');
  await shot(bob, 'challenge-decline-desktop');
  await bob.getByRole('button', { name: 'Decline' }).click();
  await bob.locator('.status', { hasText: 'The challenge was declined' }).waitFor();
  await ann.locator('.status', { hasText: 'The challenge was declined: \u201cnot today\u201d' }).waitFor();
  assert.equal(await bob.getByRole('button', { name: 'Join this game' }).count(), 0);
  // ann cancels the next one: bob2's page says so.
  const cancelled = await createGame(ann, { game: 'swaptimum', size: 3, colour: 'first', opponent: 'user', player: 'bob2' });
  await bob.goto(`/games/${cancelled}`);
  await bob.getByRole('button', { name: 'Decline' }).waitFor();
  await ann.getByRole('button', { name: 'Cancel this challenge' }).click();
  await ann.locator('.status', { hasText: 'The challenge was cancelled.' }).waitFor();
  await bob.locator('.status', { hasText: 'The challenge was cancelled.' }).waitFor();
  // A third one bob2 joins: once ann has moved, her Home lists it as waiting for him.
  const played = await createGame(ann, { game: 'swaptimum', size: 3, colour: 'first', opponent: 'user', player: 'bob2' });
  await bob.goto(`/games/${played}`);
  await bob.getByRole('button', { name: 'Join this game' }).click();
  await ann.getByText('Your move.').waitFor();
  await cell(ann, 'b2').click();
  await bob.getByText('Your move.').waitFor();
  await ann.goto('/');
  await ann.locator('section[aria-labelledby="their-h"] a[href="/games/' + played + '"]').waitFor();
  await bob.goto('/');
  await bob.locator('section[aria-labelledby="turn-h"] a[href="/games/' + played + '"]').waitFor();
  await one.close();
  await two.close();
});
