// Runs the test files of a folder one after another, each in `node --test`: the end-to-end
// tests share one machine's Chromium and ports and must not run at once. Node's own
// `--test-concurrency=1` does the same but is missing before Node 18.19 (Debian 12 shipped
// 18.13 before its security updates), so the order is kept here instead.

import { spawnSync } from 'node:child_process';
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
const failed = [];
for (const file of files) {
  const run = spawnSync(process.execPath, ['--test', file], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(file);
}
console.log(`files: ${files.length - failed.length} passed, ${failed.length} failed (Node ${process.version})`);
process.exit(failed.length === 0 ? 0 : 1);
