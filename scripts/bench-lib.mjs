// What the API benchmarks share (scripts/bench-api.mjs, bench-ab.mjs, bench-steps.mjs): a server started as
// `npm start` starts it from any tree, autocannon loads of the price call and of a pay-in-car guest booking (a new
// Idempotency-Key per request), and their summaries.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';

export const headers = {
  'content-type': 'application/json',
  'api-public-key': process.env.API_PUBLIC_KEY || 'local-public-key',
  'api-secret-key': process.env.API_SECRET_KEY || 'local-secret-key',
};
export const log = (line) => process.stdout.write(`${line}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Every booking of a load run comes from one address and to one recipient: the allowances a tree knows
 * (src/server/limits.ts; none before issue 31) are raised so a run measures the booking path, not the 429s. A tree
 * refuses a RATE_LIMITS name it does not know, so only the names found in its limits.ts are set.
 */
const RAISED = ['bookings', 'confirmationsToAddress', 'accountCreations', 'messagesToAddress'];
export function benchLimits(root) {
  const file = path.join(root, 'src/server/limits.ts');
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  return RAISED.filter((name) => new RegExp(`^\\s+${name}: \\{`, 'm').test(text)).map((name) => `${name}=100000000`).join(',');
}

export const freePort = () => new Promise((resolve, reject) => {
  const srv = createServer();
  srv.on('error', reject);
  srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
});

/** Resident memory of a process, MiB (Linux /proc). */
export function rssMiB(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
    return Math.round(kb / 1024);
  } catch {
    return null;
  }
}

/** The command a tree's `npm start` runs, as node arguments (its package.json: `node scripts/start.mjs`). */
function startArguments(root) {
  const start = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  const words = start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.some((w) => /[&|;<>$`]/.test(w))) throw new Error(`The benchmark starts the server with node; package.json's start is "${start}"`);
  return words.slice(1);
}

export async function waitForApi(url, child, what) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/v1/setting`, { headers });
      if (res.ok) { await res.arrayBuffer(); return; }
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error(`${what} did not answer within 120 s`);
    await sleep(50);
  }
}

/**
 * A server of the tree at `root`, as `npm start` starts it, on a free port, in a new data folder (its outbox is there
 * too): production, the card test gateway, no website build, the allowances raised (benchLimits). `env` adds to that.
 */
export async function startServer(root, env = {}, what = 'The server') {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, startArguments(root), {
    cwd: root,
    env: {
      ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: 'production', CARD_GATEWAY: 'test',
      RATE_LIMITS: benchLimits(root), SKIP_SPA_BUILD: '1', ...(customers === 'many' ? { TRUST_PROXY: '1' } : {}), ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  await waitForApi(url, child, what);
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited; // the server closes the database before its folder goes
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, pid: child.pid, dataDir, startMs: Date.now() - started, stop };
}

/**
 * CPU time (user + system, ms) used so far by the processes `roots` and all their descendants (Linux /proc; the
 * clock-tick resolution, 10 ms, is small against a load's seconds). A descendant that has exited counts in its
 * parent's children's time (PostgreSQL's backends end when a pool lets an idle connection go); the roots must live
 * from one reading to the next.
 */
export function processTreeCpuMs(roots) {
  const stats = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let text;
    try { text = readFileSync(`/proc/${entry}/stat`, 'utf8'); } catch { continue; }
    // The fields after the command name (which may hold spaces): state, ppid, ... utime to cstime are the 14th to 17th.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // utime, stime, and cutime, cstime: the exited children this one has waited for.
    stats.set(Number(entry), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
  }
  const wanted = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, s] of stats) if (!wanted.has(pid) && wanted.has(s.ppid)) { wanted.add(pid); grew = true; }
  }
  let ticks = 0;
  for (const pid of wanted) ticks += stats.get(pid)?.ticks ?? 0;
  return (ticks * 1000) / 100;
}

export const outboxCount = (dataDir) => (existsSync(path.join(dataDir, 'outbox')) ? readdirSync(path.join(dataDir, 'outbox')).length : 0);

/** One autocannon run; resolves with its result. A slow answer is measured, not counted as a timeout. */
export function load(connections, opts, duration) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ connections, duration, timeout: 60, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

export const summarise = (r) => ({
  requests_per_second: Math.round(r.requests.average), p50_ms: r.latency.p50, p90_ms: r.latency.p90, p99_ms: r.latency.p99,
  max_ms: r.latency.max, p99_over_p50: r.latency.p50 ? Math.round((r.latency.p99 / r.latency.p50) * 10) / 10 : null,
  ok: r['2xx'], non_2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts,
});

/** Slices of one load, as one summary: requests over time, p50 the slices' mean, p99 and the slowest their worst. */
export function merged(results) {
  const total = results.reduce((n, r) => n + r.requests.total, 0);
  const time = results.reduce((n, r) => n + r.duration, 0);
  const p50 = Math.round((results.reduce((n, r) => n + r.latency.p50, 0) / results.length) * 10) / 10;
  const p99 = Math.max(...results.map((r) => r.latency.p99));
  const sum = (k) => results.reduce((n, r) => n + r[k], 0);
  return {
    requests_per_second: Math.round(total / time), p50_ms: p50, p90_ms: Math.max(...results.map((r) => r.latency.p90)), p99_ms: p99,
    max_ms: Math.max(...results.map((r) => r.latency.max)), p99_over_p50: p50 ? Math.round((p99 / p50) * 10) / 10 : null,
    ok: sum('2xx'), non_2xx: sum('non2xx'), errors: sum('errors'), timeouts: sum('timeouts'), slices: results.length,
  };
}

const year = new Date().getUTCFullYear() + 1;
export const form = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: `${year}-06-01`, pickup_hour: '3pm', pickup_min: '05', passengers: 2, luggages: 1, meet_and_greet: 'yes',
};
export const priceBody = JSON.stringify(form);

export async function post(url, pathName, body, extra = {}) {
  const res = await fetch(`${url}/api/v1${pathName}`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** The price call's load. */
export const priceLoad = (url) => ({ url: `${url}/api/v1/calculate-distance-price`, method: 'POST', headers, body: priceBody });

/** A guest booking paid in the car, for the vehicle the price call offers first. */
export async function bookingRequest(url) {
  const price = await post(url, '/calculate-distance-price', form);
  if (price.status !== 200) throw new Error(`The price call answered ${price.status}: ${JSON.stringify(price.body)}`);
  const vehicle = price.body.price_details[0];
  return {
    vehicle,
    body: {
      selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, payment_method: 'car',
      selected_passenger: 'guest_login',
      registrationData: { firstName: 'Load', surname: 'Test', number: '+44 770 090 012', email: 'load.test@example.com' },
    },
  };
}

/**
 * How many customers the booking load comes from (BENCH_CUSTOMERS): `one` (the default) sends every booking from one
 * address for one e-mail, so every booking counts on the same three allowance rows, the worst case for PostgreSQL's
 * row locks; `many` gives each booking its own e-mail and client address (X-Forwarded-For, the servers started with
 * TRUST_PROXY=1 by startServer), as bookings from many travellers come.
 */
export const customers = process.env.BENCH_CUSTOMERS === 'many' ? 'many' : 'one';
if (!['one', 'many', undefined].includes(process.env.BENCH_CUSTOMERS)) throw new Error('BENCH_CUSTOMERS is one or many');

/**
 * Autocannon options for bookings, each with a new key `bench-<runId>-<label>-<n>`; `okKeys` collects the keys whose
 * answer was a 2xx (one request at a time per connection, so an answer belongs to the key last set). With
 * BENCH_CUSTOMERS=many each booking has its own e-mail and client address too.
 */
export function bookingLoad(url, body, runId, label, okKeys = []) {
  let n = 0;
  const next = (client) => {
    client.key = `bench-${runId}-${label}-${++n}`;
    const h = { ...headers, 'idempotency-key': client.key };
    if (customers === 'one') { client.setHeaders(h); return; }
    const who = n;
    const address = `10.${(who >> 16) & 255}.${(who >> 8) & 255}.${who & 255}`;
    const mine = { ...body, registrationData: { ...body.registrationData, email: `load.${runId}.${label}.${who}@example.com` } };
    client.setHeadersAndBody({ ...h, 'x-forwarded-for': address }, JSON.stringify(mine));
  };
  return {
    url: `${url}/api/v1/booking`, method: 'POST', headers, body: JSON.stringify(body),
    setupClient: (client) => {
      next(client);
      client.on('response', (status) => {
        if (status >= 200 && status < 300) okKeys.push(client.key);
        next(client);
      });
    },
  };
}

/** Waits until `drained()` is true (a server has sent the messages of the bookings it answered), 60 s at most; ms waited. */
export async function settle(drained, limitMs = 60_000) {
  const began = Date.now();
  while (!(await drained()) && Date.now() - began < limitMs) await sleep(50);
  return Date.now() - began;
}

/**
 * Waits until a count stops growing (the same for `quietMs`), so a server's mail queue has finished what a load left
 * it; resolves with the ms from the call to the last change.
 */
export async function settleCount(count, quietMs = 1000, limitMs = 60_000) {
  const began = Date.now();
  let last = await count();
  let changedAt = began;
  while (Date.now() - changedAt < quietMs && Date.now() - began < limitMs) {
    await sleep(50);
    const now = await count();
    if (now !== last) { last = now; changedAt = Date.now(); }
  }
  return changedAt - began;
}
