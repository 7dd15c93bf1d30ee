// The board's colours against the page: WCAG's contrast of White's edges.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PAPER, SIDE_FILLS, WOOD } from '../src/board';

/** A colour's relative luminance (WCAG 2.x), from `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio of two colours, 1 to 21. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test("White's edges stand out at 3:1 at least from the page and from the wood", () => {
  const edge = SIDE_FILLS.White;
  assert.equal(contrast(edge, PAPER).toFixed(2), '4.46');
  assert.equal(contrast(edge, WOOD).toFixed(2), '3.29');
  // The light grey it replaces was 1.50:1 against the page.
  assert.ok(contrast('#cfcfc8', PAPER) < 3);
});
