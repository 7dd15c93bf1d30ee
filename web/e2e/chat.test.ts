// End-to-end: two players talk on a game page (docs/CHAT.md). A message arrives without a
// reload (the socket's nudge), is shown as text (markup stays words), and a spectator sees
// the spectators' chat, not the players'.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createGame, player, shot, useWorld } from './harness';

const world = useWorld();

test('two players exchange a message on a game page; a spectator sees none of it', async () => {
  const ann = await player(world(), 'ann');
  const bob = await player(world(), 'bob');
  const carl = await player(world(), 'carl');
  const id = await createGame(ann.page, { game: 'swaptimum', size: 3, colour: 'first', opponent: 'user', player: 'bob' });
  await bob.page.goto(`/games/${id}`);
  await bob.page.getByRole('button', { name: 'Join this game' }).click();
  await ann.page.getByText('Your move.').waitFor();
  await ann.page.getByLabel('Chat with your opponent: your message').fill('hello <b>bob</b>');
  await ann.page.locator('details.chat').getByRole('button', { name: 'Post' }).click();
  const got = bob.page.locator('details.chat .chat-text', { hasText: 'hello <b>bob</b>' });
  await got.waitFor();
  assert.equal(await bob.page.locator('details.chat b', { hasText: /^bob$/ }).count(), 0);
  await bob.page.getByLabel('Chat with your opponent: your message').fill('hi ann');
  await bob.page.locator('details.chat').getByRole('button', { name: 'Post' }).click();
  await ann.page.locator('details.chat .chat-text', { hasText: 'hi ann' }).waitFor();
  await shot(ann.page, 'chat-desktop');
  await carl.page.goto(`/games/${id}`);
  await carl.page.locator('details.chat summary', { hasText: "Spectators' chat" }).waitFor();
  assert.equal(await carl.page.getByText('hi ann').count(), 0);
  for (const one of [ann, bob, carl]) await one.ctx.close();
});
