// End-to-end (issue 25): puzzles proven by the solver, solved by clicking on the real board.
// A wrong move is refuted with the opponent's line and why in words; the solution is then
// accepted with its proven line; the list filters by game; the daily puzzle is on the front
// page.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { APIRequestContext } from 'playwright-core';

import { cell, context, shot, useWorld } from './harness';

const world = useWorld();

interface Puzzle {
  id: string;
  game: string;
  size: number;
  position: string;
  task: string;
}

interface Draft {
  verdict: string;
  move?: string;
  more: boolean;
  next: string[];
}

interface Attempt {
  correct: boolean;
  solution: string;
  line: string[];
}

/** A Swaptimum puzzle whose solution and some wrong answer are each one click: the puzzle,
 * the solution's cell and the wrong cell. */
async function clickablePuzzle(request: APIRequestContext): Promise<{ puzzle: Puzzle; right: string; wrong: string }> {
  const list = (await (await request.get('/api/puzzles?game=swaptimum&limit=200')).json()) as { puzzles: Puzzle[] };
  for (const puzzle of list.puzzles) {
    const start = (await (await request.post('/api/positions/draft', { data: { position: puzzle.position, cells: [] } })).json()) as Draft;
    let right: string | null = null;
    let wrong: string | null = null;
    for (const c of start.next) {
      const draft = (await (await request.post('/api/positions/draft', { data: { position: puzzle.position, cells: [c] } })).json()) as Draft;
      if (draft.verdict !== 'complete' || draft.more || !draft.move) continue;
      const judged = (await (await request.post(`/api/puzzles/${puzzle.id}/attempt`, { data: { move: draft.move } })).json()) as Attempt;
      if (judged.correct) right = c;
      else wrong ??= c;
      if (right && wrong) return { puzzle, right, wrong };
    }
  }
  throw new Error('no Swaptimum puzzle answered by single clicks');
}

test('a puzzle: a wrong answer refuted, then solved on the board', async () => {
  const w = world();
  for (const phone of [false, true]) {
    const ctx = await context(w, phone);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().includes('429')) errors.push(m.text()); });
    const { puzzle, right, wrong } = await clickablePuzzle(ctx.request);
    await page.goto(`/puzzles/${puzzle.id}`);
    await page.locator('.task', { hasText: puzzle.task }).waitFor();
    // The builder's offer is drawn before the first click.
    await page.locator('svg.board [data-cell].next').first().waitFor();
    await cell(page, wrong).click();
    const verdict = page.locator('.verdict');
    await verdict.filter({ hasText: 'Not quite.' }).waitFor();
    assert.match((await verdict.textContent()) ?? '', / does not win/);
    // The refutation: the wrong move, then the opponent's answer at least.
    const refutation = await page.locator('ol.puzzle-line li').allTextContents();
    assert.ok(refutation.length >= 2, JSON.stringify(refutation));
    assert.equal(refutation[0].length > 0, true);
    await shot(page, `puzzle-wrong-${phone ? 'phone' : 'desktop'}`);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('svg.board [data-cell].next').first().waitFor();
    await cell(page, right).click();
    await verdict.filter({ hasText: 'Solved.' }).waitFor();
    const line = await page.locator('ol.puzzle-line li').allTextContents();
    const served = (await (await ctx.request.post(`/api/puzzles/${puzzle.id}/attempt`, { data: { move: line[0] } })).json()) as Attempt;
    assert.deepEqual(line, served.line);
    // The line played out: Forward walks it on the board.
    await page.getByRole('button', { name: 'Forward' }).click();
    await shot(page, `puzzle-solved-${phone ? 'phone' : 'desktop'}`);
    if (phone) {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      assert.equal(wide, false, 'the puzzle page scrolls sideways on a phone');
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('the list filters by game and the front page shows the daily puzzle', async () => {
  const w = world();
  const ctx = await context(w);
  const page = await ctx.newPage();
  // The first list (every game) answers late, after the filter has been changed: the
  // filtered list must stay, whatever order the answers come in.
  const isFirstList = (url: string): boolean => url.includes('/api/puzzles?') && !url.includes('game=');
  let holding = true;
  await page.route('**/api/puzzles?*', async (route) => {
    if (holding && isFirstList(route.request().url())) {
      holding = false;
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    await route.continue();
  });
  const lateAnswer = page.waitForResponse((r) => isFirstList(r.url()));
  await page.goto('/puzzles');
  await page.getByRole('heading', { name: 'Puzzles', level: 1 }).waitFor();
  await page.getByLabel('Game').selectOption('flipstop');
  const onlyFlipstop = (): boolean => {
    const items = [...document.querySelectorAll('.puzzle-list li a')];
    return items.length > 0 && items.every((a) => a.textContent?.startsWith('Flipstop'));
  };
  await page.waitForFunction(onlyFlipstop);
  await lateAnswer;
  await page.waitForTimeout(300);
  assert.ok(await page.evaluate(onlyFlipstop), 'the late answer to the first request replaced the filtered list');
  await page.unroute('**/api/puzzles?*');
  await shot(page, 'puzzles-list');
  await page.goto('/');
  const daily = page.locator('section.daily');
  await daily.getByRole('heading', { name: 'Puzzle of the day' }).waitFor();
  const served = (await (await ctx.request.get('/api/puzzles/daily')).json()) as Puzzle;
  await daily.getByRole('link', { name: served.task }).click();
  await page.waitForURL(`**/puzzles/${served.id}`);
  await ctx.close();
});
