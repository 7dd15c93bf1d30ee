// Runs the test files of a folder, each in a `node --test` of its own, a few at a time
// (SWAPBOARD_E2E_JOBS, 2 by default; 1 runs them one after another), and prints each file's
// output whole once it ends. Each end-to-end file starts its own server on a free port and
// its own Chromium, so files do not share state; more than two at once on a 2-core machine
// only makes each slower. Node's own `--test-concurrency` is missing before Node 18.19
// (Debian 12 shipped 18.13 before its security updates), so the pool is kept here instead.

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node serial-test.mjs FOLDER');
  process.exit(2);
}
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.mjs'))
  .sort()
  .map((f) => join(dir, f));
if (files.length === 0) {
  console.error(`no test files (*.test.mjs) in ${dir}`);
  process.exit(1);
}
const jobs = Number.parseInt(process.env.SWAPBOARD_E2E_JOBS ?? '2', 10);
if (!Number.isInteger(jobs) || jobs < 1 || jobs > 16) {
  console.error(`SWAPBOARD_E2E_JOBS: ${process.env.SWAPBOARD_E2E_JOBS} is not a number of files at once from 1 to 16`);
  process.exit(2);
}

/** Runs one file; resolves to whether it passed, once its output is printed. */
function run(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => {
      process.stdout.write(Buffer.concat(output));
      resolve(status === 0);
    });
  });
}

const failed = [];
const waiting = [...files];
async function lane() {
  for (let file = waiting.shift(); file; file = waiting.shift()) {
    if (!(await run(file))) failed.push(file);
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, lane));
console.log(`files: ${files.length - failed.length} passed, ${failed.length} failed (Node ${process.version})`);
if (failed.length > 0) console.log(`failed: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
