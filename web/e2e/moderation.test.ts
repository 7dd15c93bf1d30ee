// End-to-end: a moderator's day on the moderators' page (issue 48). A player reports a rude
// message from the game's chat; the moderator, granted the role at the command line, finds
// the report with the messages around it, bans the author for seven days from the card,
// dismisses the report, keeps a note in the account's file, lifts the ban from the banned
// list, and finds each act in the admin log by its filter. The banned player is told why
// and until when at the login.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { context, createGame, enter, grantRole, player, shot, submitAccount, useWorld } from './harness';

const world = useWorld();

test('a moderator reads a report in its context, bans, dismisses, notes and unbans from the page', async () => {
  const bob = await player(world(), 'bob');
  const carl = await player(world(), 'carl');
  const modCtx = await context(world());
  const mod = await modCtx.newPage();
  await enter(mod, 'mona');
  // Nobody is told of a page they cannot use.
  assert.equal(await mod.getByRole('link', { name: 'Moderation' }).count(), 0);
  grantRole(world(), 'mona', 'moderator');

  const id = await createGame(bob.page, { game: 'swaptimum', size: 5, colour: 'first', opponent: 'user', player: 'carl' });
  await carl.page.goto(`/games/${id}`);
  await carl.page.getByRole('button', { name: 'Join this game' }).click();
  await bob.page.getByText('Your move.').waitFor();
  for (const [who, text] of [[bob, 'good luck'], [carl, 'you will lose, idiot'], [bob, 'please be kind']] as const) {
    await who.page.getByLabel('Chat with your opponent: your message').fill(text);
    await who.page.locator('details.chat').getByRole('button', { name: 'Post' }).click();
    await who.page.locator('details.chat .chat-text', { hasText: text }).waitFor();
  }
  await bob.page.locator('details.chat .chat-text', { hasText: 'please be kind' }).waitFor();
  const rude = bob.page.locator('details.chat li', { hasText: 'you will lose, idiot' });
  await rude.getByRole('button', { name: 'Report' }).click();
  await rude.getByLabel('Why').selectOption('insult');
  await rude.getByLabel('Words for the moderators').fill('insults');
  await rude.getByRole('button', { name: 'Send report' }).click();
  await rude.getByText('Reported').waitFor();

  // The role shows after the next load: the header offers the page.
  await mod.reload();
  await mod.getByRole('link', { name: 'Moderation' }).click();
  const card = mod.getByRole('article', { name: /^Report / });
  await card.waitFor();
  assert.match(await card.innerText(), /carl reported by bob/);
  assert.match(await card.innerText(), /Insult or harassment “insults”/);
  // The reported message is marked, among the messages around it.
  const around = card.getByRole('list', { name: 'What surrounds it' }).locator('li');
  assert.equal(await around.count(), 3);
  assert.match(await card.locator('li.reported').innerText(), /you will lose, idiot/);
  assert.equal(await card.getByRole('link', { name: 'Open the game' }).getAttribute('href'), `/games/${id}`);
  await shot(mod, 'moderation-report');

  // An act without a reason is refused here, before any request.
  await card.getByRole('button', { name: 'Ban' }).click();
  await mod.getByText('Give a reason first').waitFor();
  await card.getByLabel('Reason (kept in the admin log)').fill('insults in a game chat');
  await card.getByLabel('Ban for').selectOption('7');
  await card.getByRole('button', { name: 'Ban' }).click();
  await mod.getByText('Ban: done.').waitFor();
  const again = mod.getByRole('article', { name: /^Report / });
  await again.getByLabel('Reason (kept in the admin log)').fill('banned for a week');
  await again.getByRole('button', { name: 'Dismiss' }).click();
  await mod.getByText('No open reports.').waitFor();

  // carl, logged out by the ban, is told why and until when.
  await carl.page.goto('/login');
  await submitAccount(carl.page, 'carl', 'Log in');
  await carl.page.getByText(/this account is banned until .*: insults in a game chat/).waitFor();

  // The accounts' tab: the banned list, carl's file, a note, then the ban lifted.
  await mod.getByRole('link', { name: 'Accounts' }).click();
  const banned = mod.getByRole('region', { name: 'Banned accounts' });
  await banned.getByText(/Banned until/).waitFor();
  await banned.getByRole('link', { name: 'carl' }).click();
  const file = mod.getByRole('region', { name: 'The file of carl' });
  await file.waitFor();
  assert.match(await file.innerText(), /Signed up .* from 127\.0\.0\.1/);
  assert.match(await file.innerText(), /you will lose, idiot/);
  // The game the ban forfeited is among its latest games.
  assert.equal(await file.locator(`a[href="/games/${id}"]`).count(), 1);
  await file.getByLabel('A note for the moderators').fill('first offence; warned in chat');
  await file.getByRole('button', { name: 'Keep the note' }).click();
  await mod.getByText(/mona: first offence; warned in chat/).waitFor();
  await shot(mod, 'moderation-file');
  await banned.getByLabel('Reason (kept in the admin log)').fill('apologised by mail');
  await banned.getByRole('button', { name: 'Unban' }).click();
  await mod.getByText('Nobody is banned.').waitFor();
  await submitAccount(carl.page, 'carl', 'Log in');
  await carl.page.getByRole('heading', { name: 'Your turn' }).waitFor();

  // The log, by its filter.
  await mod.getByRole('link', { name: 'Admin log' }).click();
  await mod.getByLabel('Action').fill('ban');
  await mod.getByRole('button', { name: 'Filter' }).click();
  await mod.waitForURL(/action=ban/);
  const lines = mod.locator('ul.log li');
  await lines.first().waitFor();
  assert.equal(await lines.count(), 1);
  assert.match(await lines.first().innerText(), /mona ban carl: until .*: insults in a game chat/);

  // The page at a phone's width.
  const phoneCtx = await context(world(), true);
  const phone = await phoneCtx.newPage();
  await enter(phone, 'mona', 'Log in');
  await phone.goto('/moderation?tab=reports&all=true');
  await phone.getByRole('article', { name: /^Report / }).waitFor();
  await shot(phone, 'moderation-phone');
  for (const one of [bob.ctx, carl.ctx, modCtx, phoneCtx]) await one.close();
});
