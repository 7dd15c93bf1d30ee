// End-to-end: the page a mail's "stop every mail" link opens (issue 49): it asks for the
// click rather than acting on the visit, and names a link that is no mail's.

import { test } from 'node:test';

import { context, useWorld } from './harness';

const world = useWorld();

test("a mail's stop link opens a page that asks for the click, and names a bad link", async () => {
  const ctx = await context(world());
  const page = await ctx.newPage();
  await page.goto('/unsubscribe?token=not-a-token');
  await page.getByRole('heading', { name: 'Stop every mail from swapboard' }).waitFor();
  // Nothing happens before the click (a scanner that opens the link stops nothing).
  await page.getByRole('button', { name: 'Stop every mail' }).click();
  await page.getByText('token: no mail carried it').waitFor();
  await ctx.close();
});
