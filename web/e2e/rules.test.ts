// End-to-end (issue 25): the front page a visitor sees, every rules page with the engine's
// diagrams drawn, and the way from a game's card to a game against the AI, whose page links
// its rules and tells the player to move which edges to join; the game then shows on the
// front page among those being played now.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';

import { context, shot, submitAccount, useWorld } from './harness';

const world = useWorld();

interface Rules {
  sections: { source: string; source_label: string; diagrams: { caption: string; pictures: { label: string }[] }[] }[];
}

/** Every picture of the page is drawn: a real SVG with a board in it and a size on screen. */
async function assertDrawn(page: Page, selector: string, count: number): Promise<void> {
  const pictures = page.locator(selector);
  assert.equal(await pictures.count(), count, selector);
  for (let k = 0; k < count; k += 1) {
    const picture = pictures.nth(k);
    const box = await picture.boundingBox();
    assert.ok(box && box.width > 150 && box.height > 150, `${selector} ${k}: ${JSON.stringify(box)}`);
    // A square board's cells (circles for its pieces, a rectangle for the board) or the
    // hexagon's tiles.
    assert.ok((await picture.locator('circle, polygon, rect').count()) > 5, `${selector} ${k} is empty`);
  }
}

test('a visitor reads the front page and every rules page, then plays the AI', async () => {
  const w = world();
  for (const phone of [false, true]) {
    const ctx = await context(w, phone);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto('/');
    await page.getByRole('heading', { name: 'swapboard', level: 1 }).waitFor();
    await page.locator('.lead', { hasText: 'five new abstract strategy games' }).waitFor();
    // The five games from GET /api/rules, each with its picture, author and links.
    const ids = await page.locator('.game-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-game')));
    assert.deepEqual(ids, ['swaptimum', 'flipstop', 'scware', 'rapid-transit', 'swap61']);
    await assertDrawn(page, '.game-card svg', 5);
    await page.locator('.game-card', { hasText: 'by Phil Leduc (2022/2024)' }).waitFor();
    await page.getByRole('link', { name: 'Sign up' }).first().waitFor();
    const size = phone ? '360x740' : '1280x900';
    await shot(page, `front-${size}`);
    if (phone) {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      assert.equal(wide, false, 'the front page scrolls sideways on a phone');
    }

    for (const id of ids) {
      await page.goto('/');
      await page.getByRole('link', { name: new RegExp(`^Rules of `) }).nth(ids.indexOf(id)).click();
      await page.waitForURL(`**/rules/${id}`);
      await page.getByRole('heading', { name: /^Rules of / }).waitFor();
      const rules = (await (await page.request.get(`/api/rules/${id}`)).json()) as Rules;
      const diagrams = rules.sections.flatMap((s) => s.diagrams);
      const pictures = diagrams.flatMap((d) => d.pictures);
      await assertDrawn(page, 'figure.diagram svg', pictures.length);
      // A move is drawn before and after, each picture labelled.
      const labels = await page.locator('figure.diagram .picture-label').allTextContents();
      assert.deepEqual(labels, pictures.map((p) => p.label).filter((l) => l !== ''));
      const captions = await page.locator('figure.diagram figcaption').allTextContents();
      assert.equal(captions.length, diagrams.length);
      captions.forEach((caption, k) => assert.ok(caption.startsWith(diagrams[k].caption), caption));
      // The sheet's rules, swapboard's readings and its choices, each section labelled.
      const sources = await page.locator('.rules-section .source-label').allTextContents();
      assert.deepEqual(sources, rules.sections.map((s) => s.source_label));
      await shot(page, `rules-${id}-${size}`);
    }
    const credit = await page.request.get('/api/rules/rapid-transit');
    assert.match(await credit.text(), /All rights are reserved/);
    assert.deepEqual(errors, [], 'errors in the console');
    await ctx.close();
  }

  // "Play ... against the AI now" starts a visitor's game at once (as a guest), whose page
  // links to the rules; the new-game form links to the rules of the game chosen.
  const ctx = await context(w);
  const page = await ctx.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Play Swaptimum against the AI now' }).click();
  await page.waitForURL('**/games/*');
  const guestGame = new URL(page.url()).pathname;
  await page.goto(`/signup?next=${encodeURIComponent('/new?game=swaptimum')}`);
  await submitAccount(page, 'reader', 'Sign up');
  await page.waitForURL('**/new?game=swaptimum');
  assert.equal(await page.locator('select[name="game"]').inputValue(), 'swaptimum');
  await page.getByRole('link', { name: 'Rules of Swaptimum' }).waitFor();
  await page.locator('select[name="game"]').selectOption('scware');
  await page.getByRole('link', { name: 'Rules of Scware' }).waitFor();
  await page.locator('select[name="game"]').selectOption('swaptimum');
  await page.getByRole('button', { name: 'Create the game' }).click();
  await page.waitForURL('**/games/*');
  await page.locator('.credit', { hasText: /to move joins the (top and bottom|left and right) edges\./ }).waitFor();
  await shot(page, 'game-rules-link-1280x900');
  await page.locator('.credit').getByRole('link', { name: 'Rules' }).click();
  await page.waitForURL('**/rules/swaptimum');
  await page.getByRole('heading', { name: 'Rules of Swaptimum by Mark Steere (2023)' }).waitFor();
  await ctx.close();

  // Another visitor's front page lists the games being played now, the guest's among them.
  const visitor = await context(w);
  const front = await visitor.newPage();
  await front.goto('/');
  const playing = front.locator('section', { has: front.getByRole('heading', { name: 'Being played now' }) });
  await playing.locator(`a[href="${guestGame}"]`).waitFor();
  // Every page's footer leads to what swapboard is, with each game's credit, and to the help.
  await front.getByRole('navigation', { name: 'about' }).getByRole('link', { name: 'About' }).click();
  await front.getByRole('heading', { name: 'About swapboard', level: 1 }).waitFor();
  await front.getByRole('heading', { name: 'Rapid Transit by Phil Leduc (2022/2024)', level: 3 }).waitFor();
  await front.locator('.about-game', { hasText: /All rights are reserved/ }).waitFor();
  assert.equal(await front.locator('.about-game').count(), 5);
  await front.getByRole('link', { name: 'How to use the site' }).click();
  await front.getByRole('heading', { name: 'How to use swapboard', level: 1 }).waitFor();
  await shot(front, 'help-1280x900');
  await visitor.close();
});
