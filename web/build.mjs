// Builds the client into dist/ (committed: Rust alone then builds the server with it), or
// with --tests / --e2e the unit and end-to-end tests into test-out/.
// The same sources give byte-identical files: esbuild's output and hashes are deterministic
// and gzip is written without a time stamp.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync, constants } from 'node:zlib';
import * as esbuild from 'esbuild';

const BUDGET = 150 * 1024;
const mode = process.argv[2] ?? '';

if (mode === '--tests' || mode === '--e2e') {
  const dir = mode === '--tests' ? 'test' : 'e2e';
  const out = mode === '--tests' ? 'test-out' : 'test-out/e2e';
  rmSync(out, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: readdirSync(dir).filter((f) => f.endsWith('.test.ts')).map((f) => `${dir}/${f}`),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    packages: 'external',
    outdir: out,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
  process.exit(0);
}

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist');
const result = await esbuild.build({
  entryPoints: ['src/main.ts', 'src/style.css'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  entryNames: '[name].[hash]',
  outdir: 'dist',
  write: false,
  legalComments: 'none',
  logLevel: 'warning',
});

/** The files of dist/, by name. */
const files = new Map();
let js = '';
let css = '';
for (const file of result.outputFiles) {
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  files.set(name, Buffer.from(file.contents));
  if (name.endsWith('.js')) js = name;
  if (name.endsWith('.css')) css = name;
}
/** Adds a file under its name with its content's hash (`icon-192.1a2b3c4d.png`); its name. */
const hashed = (source, body = readFileSync(source)) => {
  const dot = source.lastIndexOf('.');
  const base = source.slice(source.lastIndexOf('/') + 1, dot);
  const name = `${base}.${createHash('sha256').update(body).digest('hex').slice(0, 8)}${source.slice(dot)}`;
  files.set(name, body);
  return name;
};
const favicon = hashed('favicon.svg');
/** The icons (drawn from favicon.svg by icons.mjs), by file under icons/. */
const icons = Object.fromEntries(readdirSync('icons').sort().map((file) => [file, hashed(`icons/${file}`)]));

// The installed app's colours are the page's own: the header's and the paper's.
const style = readFileSync('src/style.css', 'utf8');
const colour = (name) => {
  const found = new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(style)?.[1];
  if (!found) throw new Error(`src/style.css: no --${name} colour`);
  return found;
};
const theme = colour('chrome');
const manifest = {
  id: '/',
  name: 'swapboard',
  short_name: 'swapboard',
  description: 'Swaptimum, Flipstop, Scware, Rapid Transit and Swap 61: play people and the AI, live or by correspondence.',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  theme_color: theme,
  background_color: colour('paper'),
  icons: [
    { src: `/${icons['icon-192.png']}`, sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: `/${icons['icon-512.png']}`, sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: `/${icons['maskable-512.png']}`, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};
files.set('manifest.webmanifest', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));

/** A page template with its placeholders filled, on one line (it is served, not read). */
const fill = (template, values) =>
  Object.entries(values)
    .reduce((page, [key, value]) => page.replaceAll(`{{${key}}}`, value), readFileSync(template, 'utf8'))
    .replace(/>\s+</g, '><')
    .trim();
files.set('index.html', Buffer.from(fill('index.html', { js, css, favicon, theme, 'apple-touch-icon': icons['apple-touch-180.png'] })));
// The page the service worker shows when a page cannot be loaded: cached at its install
// with what it draws with.
const offline = hashed('offline.html', Buffer.from(fill('offline.html', { css, favicon })));

// The service worker keeps one name (a browser registers it by URL); the server serves it
// uncached. It is told the offline page's files: a new page is a new worker, which caches it.
const worker = await esbuild.build({
  entryPoints: ['src/sw.ts'],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  write: false,
  legalComments: 'none',
  logLevel: 'warning',
  define: { OFFLINE_PAGE: JSON.stringify(`/${offline}`), OFFLINE_FILES: JSON.stringify([`/${offline}`, `/${css}`, `/${favicon}`]) },
});
files.set('sw.js', Buffer.from(worker.outputFiles[0].contents));

let firstLoad = 0;
const lines = [];
for (const [name, body] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
  writeFileSync(`dist/${name}`, body);
  // A PNG is compressed already; the icons are fetched at an install, not at a first load.
  if (name.endsWith('.png')) {
    lines.push(`  ${name}: ${body.length} B`);
    continue;
  }
  const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
  writeFileSync(`dist/${name}.gz`, gz);
  firstLoad += gz.length;
  lines.push(`  ${name}: ${body.length} B, ${gz.length} B gzipped`);
}
console.log(lines.join('\n'));
console.log(`first load: ${firstLoad} B gzipped (budget ${BUDGET} B)`);
if (firstLoad > BUDGET) {
  console.error('the first load is over its budget');
  process.exit(1);
}
