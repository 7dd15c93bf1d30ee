// What the end-to-end tests share: a real `swapboard serve` on a fresh SQLite file and a free
// port, Debian's Chromium driven by playwright-core, and API helpers for a second player.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Where the screenshots go (git-ignored; CI keeps them as artefacts). */
export const SHOTS = resolve('test-results');
/** The `swapboard` binary under test. */
export const BINARY = process.env.SWAPBOARD_BIN ?? resolve('../target/debug/swapboard');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** A server and a browser for one test file. */
export interface World {
  base: string;
  /** The server's database, for the operator's commands (`swapboard admin ...`). */
  database: string;
  browser: Browser;
  /** Stops the server (SIGTERM) and waits until it has exited. */
  stopServer(): Promise<void>;
  /** Starts the server again on the same port and database. */
  startServer(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server (waiting for /healthz) and the browser. */
export async function startWorld(): Promise<World> {
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'swapboard-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const database = `sqlite:${dir}/db?mode=rwc`;
  // Its log (one line a request) goes to a file beside the database.
  const log = openSync(join(dir, 'server.log'), 'a');
  let server: ChildProcess;
  const startServer = async (): Promise<void> => {
    server = spawn(BINARY, ['serve', '--addr', `127.0.0.1:${port}`, '--database', database], {
      stdio: ['ignore', 'ignore', log],
    });
    for (let i = 0; ; i += 1) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        // Not listening yet.
      }
      if (i > 200) throw new Error(`the server at ${base} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stopServer = async (): Promise<void> => {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  };
  await startServer();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return {
    base,
    database,
    browser,
    stopServer,
    startServer,
    async close() {
      await browser.close();
      await stopServer();
    },
  };
}

/** A world for the tests of one file: started before them, closed after them. */
export function useWorld(): () => World {
  let world: World | null = null;
  before(async () => {
    world = await startWorld();
  });
  after(async () => {
    await world?.close();
  });
  return () => {
    if (!world) throw new Error('the world is not started yet');
    return world;
  };
}

/** Grants a role at the command line, as the operator does (`swapboard admin grant`). */
export function grantRole(world: World, name: string, role: 'admin' | 'moderator'): void {
  const done = spawnSync(BINARY, ['admin', 'grant', name, role, '--database', world.database], { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`admin grant ${name} ${role}: ${done.stderr}`);
}

/** A fresh browser context (its own cookies) at desktop size, or at a phone's. */
export async function context(world: World, phone = false): Promise<BrowserContext> {
  return world.browser.newContext({
    baseURL: world.base,
    viewport: phone ? { width: 360, height: 740 } : { width: 1280, height: 900 },
    hasTouch: phone,
    isMobile: phone,
  });
}

/** Fills the sign-up or login form shown (with the harness's usual password unless told) and sends it. */
export async function submitAccount(page: Page, name: string, how: 'Sign up' | 'Log in', password = 'correct horse'): Promise<void> {
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: how }).click();
}

/** Signs up (or logs in) through the page and waits for home. */
export async function enter(page: Page, name: string, how: 'Sign up' | 'Log in' = 'Sign up'): Promise<void> {
  await page.goto(how === 'Sign up' ? '/signup' : '/login');
  await submitAccount(page, name, how);
  await page.getByRole('heading', { name: 'Your turn' }).waitFor();
  // The home page draws its last section after all its requests: a test that clears the
  // cookies next must not have one of them still in flight (its 401 would send the page to
  // log in before the test's own step does).
  await page.getByRole('heading', { name: 'Being played now' }).waitFor();
}

/** A new browser context with one page, signed up as `name`. */
export async function player(world: World, name: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await context(world);
  const page = await ctx.newPage();
  await enter(page, name);
  return { ctx, page };
}

/** The number of plies in the move list (one button each; a row holds a move number's two). */
export async function plies(page: Page): Promise<number> {
  return page.locator('ol.moves button[data-ply]').count();
}

/** Waits until the move list has at least `n` plies (the AI's reply may take a while). */
export async function waitForPlies(page: Page, n: number): Promise<void> {
  await page.waitForFunction((k) => document.querySelectorAll('ol.moves button[data-ply]').length >= k, n, { timeout: 30_000 });
}

/** An account for the API: signs up and returns a bearer token. */
export async function token(world: World, name: string): Promise<string> {
  const body = JSON.stringify({ name, password: 'correct horse' });
  await fetch(`${world.base}/api/accounts`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  return logIn(world, name);
}

/** A new bearer token of an account that exists (a sign-up would spend one of the address's few). */
export async function logIn(world: World, name: string): Promise<string> {
  const body = JSON.stringify({ name, password: 'correct horse' });
  const answer = await fetch(`${world.base}/api/tokens`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  return ((await answer.json()) as { token: string }).token;
}

/** Calls the API with a bearer token; throws on a refusal. */
export async function call<T>(world: World, bearer: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${world.base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await answer.json()) as T;
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(json)}`);
  return json;
}

/** A game between two API accounts (bearer tokens), the first seated first; its id. */
export async function apiGame(w: World, first: string, second: string, body: Record<string, unknown>): Promise<string> {
  const created = await call<{ id: string }>(w, first, 'POST', '/api/games', { ...body, colour: 'first' });
  await call(w, second, 'POST', `/api/games/${created.id}/join`, {});
  return created.id;
}

/** Creates a game through the form and returns its id. */
export async function createGame(
  page: Page,
  options: { game: string; size: number; colour: string; opponent: string; level?: number; player?: string; minutes?: number; rated?: boolean },
): Promise<string> {
  await page.goto('/new');
  await page.getByLabel('Game').selectOption(options.game);
  await page.getByLabel('Board size').fill(String(options.size));
  await page.getByLabel('Your colour').selectOption(options.colour);
  await page.getByLabel('Opponent').selectOption(options.opponent);
  if (options.level !== undefined) await page.getByLabel('AI level (1-8)').fill(String(options.level));
  if (options.player !== undefined) await page.getByLabel('Player name').fill(options.player);
  if (options.rated !== undefined) await page.getByLabel('Rated').setChecked(options.rated);
  if (options.minutes !== undefined) {
    await page.getByLabel('Time control').selectOption('live');
    await page.getByLabel('Minutes each').fill(String(options.minutes));
    await page.getByLabel('Increment (s)').fill('0');
  }
  await page.getByRole('button', { name: 'Create the game' }).click();
  await page.waitForURL(/\/games\/[0-9a-zA-Z_-]+$/);
  return new URL(page.url()).pathname.split('/')[2];
}

/** The board cell of that name (its accessible name starts with it). */
export function cell(page: Page, name: string) {
  return page.locator(`svg.board [data-cell="${name}"]`);
}

/** Saves a screenshot under test-results/. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}
