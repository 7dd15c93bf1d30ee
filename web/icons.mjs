// Renders the app's PNG icons (icons/) from favicon.svg with Debian's Chromium, driven by
// playwright-core: `node icons.mjs` after the SVG changes, then `npm run build` and commit
// both. The PNGs are committed rather than drawn at each build so that the build needs no
// browser and stays byte-identical.
//
// - icon-192.png, icon-512.png: the SVG as it is (its rounded corners transparent), for the
//   manifest's "any" purpose;
// - maskable-512.png: the board's colour to the edges and the SVG within the middle 70 %, so
//   the platform's mask (a circle, a squircle) never cuts a stone (the safe zone is 80 %);
// - apple-touch-180.png: full bleed, as iOS rounds the corners itself and shows transparency
//   as black.

import { mkdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync('favicon.svg', 'utf8');
// The board's colour, the SVG's first fill: the edges of the full-bleed icons.
const board = /fill="(#[0-9a-f]{6})"/i.exec(svg)?.[1];
if (!board) throw new Error('favicon.svg: no fill colour found');
const data = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

/** Each icon: its file, its size in pixels, and the share of it the SVG fills. */
const ICONS = [
  { file: 'icon-192.png', size: 192, inner: 1, bleed: false },
  { file: 'icon-512.png', size: 512, inner: 1, bleed: false },
  { file: 'maskable-512.png', size: 512, inner: 0.7, bleed: true },
  { file: 'apple-touch-180.png', size: 180, inner: 1, bleed: true },
];

mkdirSync('icons', { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const { file, size, inner, bleed } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const side = Math.round(size * inner);
    const offset = (size - side) / 2;
    await page.setContent(`<html><body style="margin:0;background:${bleed ? board : 'transparent'}">` +
      `<img src="${data}" width="${side}" height="${side}" style="position:absolute;left:${offset}px;top:${offset}px"></body></html>`);
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({ path: `icons/${file}`, omitBackground: !bleed, clip: { x: 0, y: 0, width: size, height: size } });
    await page.close();
    console.log(`icons/${file}: ${size} x ${size}`);
  }
} finally {
  await browser.close();
}
