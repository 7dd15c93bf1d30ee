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

// The service worker keeps one name (a browser registers it by URL); the server serves it
// uncached.
const worker = await esbuild.build({
  entryPoints: ['src/sw.ts'],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  write: false,
  legalComments: 'none',
  logLevel: 'warning',
});

/** The files of dist/, by name. */
const files = new Map([['sw.js', Buffer.from(worker.outputFiles[0].contents)]]);
let js = '';
let css = '';
for (const file of result.outputFiles) {
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  files.set(name, Buffer.from(file.contents));
  if (name.endsWith('.js')) js = name;
  if (name.endsWith('.css')) css = name;
}
const icon = readFileSync('favicon.svg');
const favicon = `favicon.${createHash('sha256').update(icon).digest('hex').slice(0, 8)}.svg`;
files.set(favicon, icon);
const page = readFileSync('index.html', 'utf8')
  .replace('{{js}}', js)
  .replace('{{css}}', css)
  .replace('{{favicon}}', favicon)
  // One line: the page is served, not read.
  .replace(/>\s+</g, '><')
  .trim();
files.set('index.html', Buffer.from(page));

let firstLoad = 0;
const lines = [];
for (const [name, body] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
  writeFileSync(`dist/${name}`, body);
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
