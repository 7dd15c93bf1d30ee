// End-to-end (issue 25): a lesson completed by clicking on the real board. A wrong move gets
// the step's reason, a refused click the rule's refusal; the progress survives a reload (the
// browser's own for a visitor); the lesson is linked from the rules page.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cell, context, shot, submitAccount, useWorld } from './harness';

const world = useWorld();

test('the Flipstop lesson, done by clicking', async () => {
  const w = world();
  for (const phone of [false, true]) {
    const ctx = await context(w, phone);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto('/rules/flipstop');
    await page.getByRole('link', { name: 'Learn Flipstop step by step' }).click();
    await page.waitForURL('**/learn/flipstop');
    const heading = page.locator('#step-h');
    const verdict = page.locator('.verdict');
    const next = async (title: string): Promise<void> => {
      await verdict.filter({ hasText: 'Right.' }).waitFor();
      await page.getByRole('button', { name: 'Next step' }).click();
      await heading.filter({ hasText: title }).waitFor();
      await page.locator('svg.board [data-cell].next').first().or(page.getByRole('button', { name: 'Pass' })).waitFor();
    };
    await heading.filter({ hasText: 'Step 1 of 6: Place a checker' }).waitFor();
    await page.locator('svg.board [data-cell].next').first().waitFor();
    await cell(page, 'c3').click();
    await next('A crosscut flips checkers');
    // A legal move that misses the task: the step's reason, then another try.
    await cell(page, 'a1').click();
    await verdict.filter({ hasText: 'Not this time.' }).waitFor();
    assert.match((await verdict.textContent()) ?? '', /forms no crosscut/);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('svg.board [data-cell].next').first().waitFor();
    await cell(page, 'c3').click();
    await verdict.filter({ hasText: 'b3 turned red' }).waitFor();
    await shot(page, `lesson-flip-${phone ? 'phone' : 'desktop'}`);
    await next("Red's one cell");
    await cell(page, 'c2').click();
    await next('A skipped turn');
    // A click the rules refuse: the engine's refusal, and nothing is judged.
    await cell(page, 'c2').click();
    await page.locator('.refusal').filter({ hasText: /./ }).waitFor();
    await page.getByRole('button', { name: 'Pass' }).click();
    await next('Finish the chain');
    // A missed win: the other side's answer, in words and on the board.
    await cell(page, 'd4').click();
    await verdict.filter({ hasText: /Blue answers [a-d][1-4]/ }).waitFor();
    const reply = /Blue answers ([a-d][1-4])/.exec((await verdict.textContent()) ?? '')?.[1] ?? '';
    assert.match(await cell(page, reply).getAttribute('aria-label') ?? '', /Blue/);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('svg.board [data-cell].next').first().waitFor();
    await cell(page, 'b2').click();
    await next('Win on a bigger board');
    // The progress is kept: a reload opens the step not done yet.
    await page.reload();
    await heading.filter({ hasText: 'Step 6 of 6' }).waitFor();
    await page.locator('svg.board [data-cell].next').first().waitFor();
    await cell(page, 'a3').click();
    await verdict.filter({ hasText: 'Right.' }).waitFor();
    await page.locator('.lesson-done').waitFor();
    await shot(page, `lesson-done-${phone ? 'phone' : 'desktop'}`);
    await page.goto('/learn');
    await page.locator('li[data-game="flipstop"]', { hasText: '6 of 6 steps done' }).waitFor();
    if (phone) {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      assert.equal(wide, false, 'the lessons scroll sideways on a phone');
    }
    assert.deepEqual(errors.filter((e) => !e.includes('422')), []);
    await ctx.close();
  }
});

test('a visitor\'s lesson progress is kept on signing up', async () => {
  const w = world();
  const ctx = await context(w);
  const page = await ctx.newPage();
  await page.goto('/learn/flipstop');
  const heading = page.locator('#step-h');
  const verdict = page.locator('.verdict');
  await heading.filter({ hasText: 'Step 1 of 6' }).waitFor();
  await page.locator('svg.board [data-cell].next').first().waitFor();
  await cell(page, 'c3').click();
  await verdict.filter({ hasText: 'Right.' }).waitFor();
  await page.getByRole('button', { name: 'Next step' }).click();
  await heading.filter({ hasText: 'Step 2 of 6' }).waitFor();
  await page.locator('svg.board [data-cell].next').first().waitFor();
  await cell(page, 'c3').click();
  await verdict.filter({ hasText: 'Right.' }).waitFor();
  // Signing up keeps the two steps: the page plays them again for the account, and the
  // server judges them as it judged them for the visitor.
  await page.getByRole('link', { name: 'Sign up' }).last().click();
  await submitAccount(page, 'learner', 'Sign up');
  await page.getByRole('heading', { name: 'Your turn' }).waitFor();
  await page.goto('/learn/flipstop');
  await heading.filter({ hasText: 'Step 3 of 6' }).waitFor();
  await page.goto('/learn');
  await page.locator('li[data-game="flipstop"]', { hasText: '2 of 6 steps done' }).waitFor();
  // The browser forgets them once they are the account's.
  assert.equal(await page.evaluate(() => localStorage.getItem('swapboard.lesson.flipstop.moves')), null);
  await ctx.close();
});
