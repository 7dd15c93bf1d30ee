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

test('a message shows its time; a report by the in-page form stays after a reload; a block says why', async () => {
  const dora = await player(world(), 'dora');
  const eric = await player(world(), 'eric');
  const id = await createGame(dora.page, { game: 'swaptimum', size: 3, colour: 'first', opponent: 'user', player: 'eric' });
  await eric.page.goto(`/games/${id}`);
  await eric.page.getByRole('button', { name: 'Join this game' }).click();
  await dora.page.getByText('Your move.').waitFor();
  for (const text of ['buy cheap coins', 'good game']) {
    await dora.page.getByLabel('Chat with your opponent: your message').fill(text);
    await dora.page.locator('details.chat').getByRole('button', { name: 'Post' }).click();
    await dora.page.locator('details.chat .chat-text', { hasText: text }).waitFor();
  }
  const spam = eric.page.locator('details.chat li', { hasText: 'buy cheap coins' });
  await spam.waitFor();
  // Written today: the time of day, with the full date and time as its title.
  const time = spam.locator('time');
  assert.match(await time.innerText(), /^\d{1,2}[:.]\d{2}/);
  assert.match((await time.getAttribute('title')) ?? '', /\d{4}/);

  // The report form, by keyboard alone: no dialog opens.
  let dialogs = 0;
  eric.page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await spam.getByRole('button', { name: 'Report' }).focus();
  await eric.page.keyboard.press('Enter');
  const why = spam.getByLabel('Why');
  await why.waitFor();
  assert.equal(await eric.page.evaluate(() => document.activeElement?.getAttribute('name')), 'category');
  await why.selectOption('spam');
  await eric.page.keyboard.press('Tab');
  await eric.page.keyboard.type('selling coins');
  await shot(eric.page, 'chat-report-form');
  await eric.page.keyboard.press('Enter');
  await spam.getByText('Reported').waitFor();
  assert.equal(dialogs, 0);
  // Escape closes a form opened by mistake, and nothing is sent.
  const other = eric.page.locator('details.chat li', { hasText: 'good game' });
  await other.getByRole('button', { name: 'Report' }).click();
  await other.getByLabel('Why').waitFor();
  await eric.page.keyboard.press('Escape');
  assert.equal(await other.locator('form').count(), 0);

  // After a reload the message still says it was reported, the other still offers it.
  await eric.page.reload();
  await eric.page.locator('details.chat li', { hasText: 'buy cheap coins' }).getByText('Reported').waitFor();
  assert.equal(await eric.page.locator('details.chat li', { hasText: 'good game' }).getByRole('button', { name: 'Report' }).count(), 1);

  // eric blocks dora on her page: the chat box gives way to a sentence on both sides.
  await eric.page.goto('/players/dora');
  await eric.page.getByRole('button', { name: 'Block' }).click();
  await eric.page.getByRole('button', { name: 'Unblock' }).waitFor();
  await eric.page.goto(`/games/${id}`);
  await eric.page.getByText("You blocked dora: neither of you can write here. Unblock on dora's profile page.").waitFor();
  assert.equal(await eric.page.getByLabel('Chat with your opponent: your message').isVisible(), false);
  await shot(eric.page, 'chat-blocked');
  await dora.page.reload();
  await dora.page.locator('details.chat .chat-closed', { hasText: 'blocked' }).waitFor();
  for (const one of [dora, eric]) await one.ctx.close();
});
