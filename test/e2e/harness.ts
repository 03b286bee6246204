// Starts the server exactly as `npm start` does (a fresh data dir, a spare port)
// and Chromium as STACK.md says (test/e2e/chromium.ts finds or unpacks it).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { DEMO_SETTINGS } from '../../src/server/operator/seed';
import { DEFAULT_LIMITS } from '../../src/server/limits';
import { resolveChromium } from './chromium';
// @ts-expect-error a plain JavaScript module of the build scripts
import { testEntryIn } from '../../scripts/compile-server.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export const ROOMY_RATE_LIMITS = Object.entries(DEFAULT_LIMITS).map(([name, l]) => `${name}=${l.max * 1000}`).join(',');

export interface RunningServer {
  url: string; dataDir: string; stop(): Promise<void>; output(): string;
  /** Runs `npm run admin -- ...args` inside the running server (see ./e2eAdmin.ts). */
  admin(...args: string[]): Promise<string>;
}

export interface ServerInfo { url: string; dataDir: string; token: string }

/** Talks to a server started elsewhere (the shared one of test/e2e/globalSetup.ts). */
export function connect(info: ServerInfo): Omit<RunningServer, 'stop' | 'output'> {
  return {
    url: info.url,
    dataDir: info.dataDir,
    admin: async (...args: string[]) => {
      const res = await fetch(`${info.url}/__e2e__/admin`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-e2e-admin-token': info.token }, body: JSON.stringify({ args }),
      });
      const body = (await res.json()) as { output?: string; message?: string };
      if (!res.ok) throw new Error(`admin ${args.join(' ')}: ${body.message}`);
      return body.output!;
    },
  };
}

export const E2E_TOKEN = `e2e-${process.pid}-${Date.now()}`;

export async function startServer(opts: { dataDir?: string; env?: Record<string, string> } = {}): Promise<RunningServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'booking-e2e-'));
  const port = await freePort();
  let log = '';
  // As `npm start` runs it, the compiled server (compiled by the run's setup when a source changed), with the tests'
  // admin door (./server.ts).
  const child: ChildProcess = spawn(process.execPath, [testEntryIn()], {
    cwd: ROOT,
    // Passwords are hashed at the lowest cost the server allows (a sign-in at the default cost is about a second of
    // CPU); the cost itself is the API suite's to check.
    // Every browser test books, writes and pays from 127.0.0.1, many times to the same addresses: the per-address
    // allowances (src/server/limits.ts, checked with their real numbers in test/api) are raised unless a test sets its own.
    env: {
      ...process.env, PORT: String(port), DATA_DIR: dataDir, E2E_ADMIN_TOKEN: E2E_TOKEN, PASSWORD_HASH_COST: '10', RATE_LIMITS: ROOMY_RATE_LIMITS,
      // Airport pickups' flights checked every 2 s (issue 42), so a test sees a flight's news without waiting a minute.
      FLIGHT_WATCH_SECONDS: '2',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => { log += d; });
  child.stderr!.on('data', (d) => { log += d; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${log}`);
    if (log.includes('Booking site ready')) break;
    if (Date.now() > deadline) throw new Error(`Server did not start in time:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    output: () => log,
    admin: connect({ url, dataDir, token: E2E_TOKEN }).admin,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

export function removeDir(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}

/** Chromium as test/e2e/chromium.ts finds it (CHROME_PATH, /usr/bin/chromium, or the npm package's). */
export async function launchBrowser(): Promise<Browser> {
  const found = await resolveChromium();
  return chromium.launch({
    executablePath: found.executablePath,
    env: { ...process.env, ...found.env },
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A date n days after today in the UK, as the date input takes it. */
export function ukDateInDays(n: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The server test/e2e/globalSetup.ts started for this worker: files running side by side never share one. */
export function sharedServerInfo(): ServerInfo {
  const servers = inject('e2eServers');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return servers[(worker - 1) % servers.length];
}

/**
 * A browser-test file on its worker's shared server: a browser for the file, and
 * settings changed through the admin module that are put back after each test.
 */
export function onSharedServer() {
  const server = connect(sharedServerInfo());
  const changed = new Set<string>();
  const suite = { server, browser: undefined as unknown as Browser };
  beforeAll(async () => { suite.browser = await launchBrowser(); });
  afterAll(async () => { await suite.browser?.close(); });
  afterEach(async () => {
    for (const name of changed) await server.admin('set-setting', name, DEMO_SETTINGS[name]);
    changed.clear();
  });
  return {
    ...suite,
    get browser() { return suite.browser; },
    async setting(name: string, value: string) {
      changed.add(name);
      await server.admin('set-setting', name, value);
    },
  };
}

/** Types into an address field of the quote form and picks the suggestion named, as a person does. */
export async function chooseAddress(page: Page, label: string, typed: string, option: string) {
  const input = page.getByRole('combobox', { name: label });
  await input.click();
  await input.fill(typed);
  await page.getByRole('option', { name: option }).click();
  await expect.poll(() => input.inputValue()).toBe(option);
}
