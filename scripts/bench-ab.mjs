// `npm run bench:ab -- <commit>`: the booking and the price call of a given commit against the working tree, side by
// side in one run on this machine, with the ratio (README "Performance").
//
// The commit is checked out beside this tree (a git worktree in .bench-ab/<commit>, kept for the next run), sharing
// this tree's packages: its node_modules holds a link to each of ours, and a .cache of its own (the database template
// is built from its own migrations). Both trees' servers are started as `npm start` starts them, with the same
// settings (scripts/bench-lib.mjs startServer: production, the card test gateway, allowances raised), and are up at
// once, so the machine's other load falls on both alike. Then, for each of three set-ups:
//   pglite      one server each, on its embedded database (a new data folder each);
//   postgres-1  one server each, each on its own database of one throwaway PostgreSQL (scripts/pg-throwaway.mjs);
//   postgres-2  two servers each on that database, the load split between them;
// AB_REPS (3) repetitions, each running the price call (pglite only) and then a pay-in-car guest booking with a new
// Idempotency-Key per request for AB_SECONDS (10) at AB_CONNECTIONS (20) on each tree in turn, the order swapped on
// every repetition. After each booking load the tree's mail queue is waited for until every message of its bookings
// is sent, and that wait is reported (drain): work a tree leaves for later shows there, not hidden.
//
// The ratio is the working tree's median requests per second over the commit's. The CPU a booking cost (the servers'
// and, on PostgreSQL, the database's processes) is measured too, during the load and for the mail sent after it: a
// steadier figure than requests per second on a busy machine. Prints a table and writes bench/results/ab.json.
// Env: AB_SECONDS, AB_REPS, AB_CONNECTIONS, AB_SETUPS (pglite,postgres-1,postgres-2), AB_WARMUP (2), and
// BENCH_CUSTOMERS (one: every booking from one address for one e-mail, the default; many: each its own), and
// AB_PG_STATEMENTS=1: on PostgreSQL, each tree's statements by the database's time a booking (pg_stat_statements,
// counted over the repetitions), printed and kept in the results.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startThrowawayPostgres } from './pg-throwaway.mjs';
import {
  bookingLoad, bookingRequest, customers, load, log, merged, outboxCount, priceLoad, processTreeCpuMs, round, settle, settleCount, sleep, startServer,
} from './bench-lib.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const seconds = Number(process.env.AB_SECONDS) || 10;
const reps = Math.max(1, Number(process.env.AB_REPS) || 3);
const connections = Number(process.env.AB_CONNECTIONS) || 20;
const warmup = Number(process.env.AB_WARMUP ?? 2);
const pgStatements = process.env.AB_PG_STATEMENTS === '1';
const setups = (process.env.AB_SETUPS || 'pglite,postgres-1,postgres-2').split(',').map((s) => s.trim()).filter(Boolean);
const runId = randomUUID().slice(0, 8);
const given = process.argv[2];
if (!given) {
  console.error('Usage: npm run bench:ab -- <commit>   (the commit to measure the working tree against)');
  process.exit(2);
}

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** The commit's tree beside ours, ready to start: checked out, our packages linked in, its template and server built. */
function prepareTree(ref) {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = path.join(root, '.bench-ab', sha.slice(0, 12));
  if (!existsSync(path.join(dir, 'package.json'))) {
    git('worktree', 'prune');
    log(`Checking out ${sha.slice(0, 12)} in ${path.relative(root, dir)}...`);
    git('worktree', 'add', '--detach', '--force', dir, sha);
  }
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const entry of readdirSync(path.join(root, 'node_modules'))) {
    if (entry === '.cache') continue; // its own: the template of its own migrations, its own compiled pieces
    const link = path.join(modules, entry);
    let present = true;
    try { lstatSync(link); } catch { present = false; }
    if (!present) symlinkSync(path.join(root, 'node_modules', entry), link);
  }
  if (existsSync(path.join(dir, 'scripts/prepare.mjs'))) {
    const made = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/prepare.mjs'],
      { cwd: dir, env: { ...process.env, SKIP_SPA_BUILD: '1' }, stdio: ['ignore', 'ignore', 'inherit'] });
    if (made.status !== 0) throw new Error(`Preparing ${sha.slice(0, 12)} failed (scripts/prepare.mjs exited ${made.status})`);
  }
  return { sha, dir };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

/** One load over a tree's servers at once (its connections split between them), as one result. */
async function loadOn(servers, optionsFor, secs) {
  const share = (i) => Math.floor(connections / servers.length) + (i < connections % servers.length ? 1 : 0);
  const results = await Promise.all(servers.map((s, i) => load(share(i), optionsFor(s, i), secs)));
  return results.length === 1 ? summary(results[0]) : summaryOf(results);
}
const summary = (r) => ({ rps: Math.round(r.requests.total / r.duration), p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, ok: r['2xx'], non2xx: r.non2xx, errors: r.errors + r.timeouts });
function summaryOf(results) {
  const m = merged(results);
  // The processes ran at the same time: their rates add up.
  const rps = Math.round(results.reduce((n, r) => n + r.requests.total / r.duration, 0));
  return { rps, p50: m.p50_ms, p99: m.p99_ms, max: m.max_ms, ok: m.ok, non2xx: m.non_2xx, errors: m.errors + m.timeouts };
}

const base = prepareTree(given);
const headSha = git('rev-parse', 'HEAD');
const dirty = git('status', '--porcelain') !== '';
const trees = [
  { label: base.sha.slice(0, 7), dir: base.dir },
  { label: `working tree (${headSha.slice(0, 7)}${dirty ? ' + changes' : ''})`, dir: root },
];
const report = {
  date: new Date().toISOString(), machine: `${os.cpus().length} cores, node ${process.version}`, load_average_at_start: os.loadavg().map((n) => round(n)),
  given: base.sha, working_tree: { head: headSha, uncommitted_changes: dirty }, seconds, reps, connections, customers, setups: {},
};

/**
 * Runs one set-up: `start(tree)` gives a tree's servers and `drained(tree, servers)` whether its mail is all sent.
 * Warm-up first (uncounted), then the repetitions, the trees' order swapped each time.
 */
async function runSetup(name, { start, drained, withPrice, extraCpu = [], statements = null }) {
  log(`\n${name}: starting both trees...`);
  const up = [];
  try {
    for (const t of trees) up.push({ tree: t, servers: await start(t) });
    for (const u of up) u.body = (await bookingRequest(u.servers[0].url)).body;
    const booking = (u, label) => loadOn(u.servers, (s, i) => bookingLoad(s.url, u.body, runId, `${name}-${label}-${i}`), seconds);
    if (warmup > 0) {
      for (const u of up) {
        if (withPrice) await loadOn(u.servers, (s) => priceLoad(s.url), warmup);
        await loadOn(u.servers, (s, i) => bookingLoad(s.url, u.body, runId, `${name}-warm-${i}`), warmup);
        await settle(() => drained(u));
      }
    }
    if (statements) await statements.reset();
    const runs = up.map(() => ({ price: [], booking: [] }));
    for (let rep = 0; rep < reps; rep++) {
      const order = rep % 2 ? [1, 0] : [0, 1];
      if (withPrice) {
        for (const i of order) runs[i].price.push(await loadOn(up[i].servers, (s) => priceLoad(s.url), seconds));
      }
      for (const i of order) {
        const roots = [...up[i].servers.map((s) => s.pid), ...extraCpu];
        const serverRoots = up[i].servers.map((s) => s.pid);
        const cpuBefore = processTreeCpuMs(roots);
        const serverCpuBefore = processTreeCpuMs(serverRoots);
        const r = await booking(up[i], `r${rep}`);
        const cpuLoaded = processTreeCpuMs(roots);
        const serverCpuLoaded = processTreeCpuMs(serverRoots);
        r.drain_ms = await settle(() => drained(up[i]));
        // The CPU a booking cost (the database's too, on PostgreSQL): during the load, and for the mail sent after it.
        r.cpu_ms_per_booking = r.ok ? round((cpuLoaded - cpuBefore) / r.ok, 3) : null;
        // Of which the servers' own (Node), during the load: the rest is the database's processes on PostgreSQL.
        r.server_cpu_ms_per_booking = r.ok ? round((serverCpuLoaded - serverCpuBefore) / r.ok, 3) : null;
        r.cpu_ms_after_per_booking = r.ok ? round((processTreeCpuMs(roots) - cpuLoaded) / r.ok, 3) : null;
        runs[i].booking.push(r);
        log(`  rep ${rep + 1} ${trees[i].label}: booking ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, mail sent ${r.drain_ms} ms after the load, CPU a booking ${r.cpu_ms_per_booking} ms (the servers ${r.server_cpu_ms_per_booking}), ${r.cpu_ms_after_per_booking} ms more for the mail after${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`);
      }
    }
    const result = {};
    up.forEach((u, i) => {
      const b = runs[i].booking;
      result[i === 0 ? 'given' : 'working_tree'] = {
        tree: u.tree.label,
        booking: { rps: b.map((r) => r.rps), cpu_ms_per_booking: b.map((r) => r.cpu_ms_per_booking), server_cpu_ms_per_booking: b.map((r) => r.server_cpu_ms_per_booking), cpu_ms_after_per_booking: b.map((r) => r.cpu_ms_after_per_booking), p50_ms: b.map((r) => r.p50), p99_ms: b.map((r) => r.p99), max_ms: Math.max(...b.map((r) => r.max)), drain_ms: b.map((r) => r.drain_ms), non_2xx: b.reduce((n, r) => n + r.non2xx + r.errors, 0) },
        ...(withPrice ? { price: { rps: runs[i].price.map((r) => r.rps), p50_ms: runs[i].price.map((r) => r.p50), p99_ms: runs[i].price.map((r) => r.p99) } } : {}),
      };
    });
    if (statements) {
      for (const [i, u] of up.entries()) {
        const bookings = runs[i].booking.reduce((n, r) => n + r.ok, 0);
        const rows = await statements.of(u, bookings);
        result[i === 0 ? 'given' : 'working_tree'].statements = rows;
        log(`\n  ${u.tree.label}: the database's time a booking, by statement (${bookings} bookings)`);
        console.table(rows.slice(0, 12).map((r) => ({ 'ms a booking': r.ms_per_booking, 'calls a booking': r.calls_per_booking, 'rows a call': r.rows_per_call, statement: r.query.slice(0, 90) })));
        log(`  in all ${round(rows.reduce((n, r) => n + r.ms_per_booking, 0), 3)} ms a booking`);
      }
    }
    const [a, b] = [result.given, result.working_tree];
    result.booking_ratio = round(median(b.booking.rps) / median(a.booking.rps));
    // The same ratio by CPU, during the load: the given commit's CPU a booking over the working tree's (1 = as cheap).
    // The mail sent after the load is apart (cpu_ms_after_per_booking): a tree whose sender yields leaves it there.
    result.booking_cpu_ratio = round(median(a.booking.cpu_ms_per_booking) / median(b.booking.cpu_ms_per_booking));
    result.booking_p99_median_ms = { given: median(a.booking.p99_ms), working_tree: median(b.booking.p99_ms) };
    if (withPrice) result.price_ratio = round(median(b.price.rps) / median(a.price.rps));
    report.setups[name] = result;
  } finally {
    for (const u of up) for (const s of u.servers) await s.stop();
  }
}

if (setups.includes('pglite')) {
  await runSetup('pglite', {
    start: async (t) => [await startServer(t.dir, {}, `The server of ${t.label}`)],
    // Every message a booking makes is a file in the server's outbox: the count stops growing once all are sent.
    drained: async (u) => { await settleCount(() => outboxCount(u.servers[0].dataDir), 500); return true; },
    withPrice: true,
  });
}

const pgSetups = setups.filter((s) => /^postgres-\d$/.test(s));
if (pgSetups.length) {
  const postgres = await startThrowawayPostgres(pgStatements ? { settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all', 'pg_stat_statements.max': 2000 } } : {});
  /** The statements' record, kept by the whole server; each tree's database read apart. */
  let statementsDb = null;
  const statements = pgStatements ? {
    async reset() {
      if (!statementsDb) {
        statementsDb = new pg.Client({ connectionString: postgres.url });
        await statementsDb.connect();
        await statementsDb.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      }
      await statementsDb.query('SELECT pg_stat_statements_reset()');
    },
    async of(u, bookings) {
      const { rows } = await statementsDb.query(
        `SELECT s.query, s.calls, s.rows, s.total_exec_time FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
          WHERE d.datname = $1 ORDER BY s.total_exec_time DESC`, [u.servers.dbName]);
      return rows.map((r) => ({
        ms_per_booking: round(r.total_exec_time / Math.max(1, bookings), 4), calls_per_booking: round(Number(r.calls) / Math.max(1, bookings), 3),
        rows_per_call: round(Number(r.rows) / Math.max(1, Number(r.calls)), 2), query: r.query.replace(/\s+/g, ' '),
      }));
    },
  } : null;
  log(`PostgreSQL ${postgres.version} (${postgres.from})`);
  try {
    const baseUrl = postgres.url.replace(/\/postgres$/, '');
    let n = 0;
    for (const name of pgSetups) {
      const processes = Number(name.split('-')[1]);
      const clients = [];
      await runSetup(name, {
        start: async (t) => {
          const admin = new pg.Client({ connectionString: postgres.url });
          await admin.connect();
          const db = `ab_${++n}`;
          await admin.query(`CREATE DATABASE ${db}`);
          await admin.end();
          const env = { DATABASE_URL: `${baseUrl}/${db}`, SERVER_SECRET: `bench-secret-${runId}` };
          const servers = [];
          // One at a time: the first creates the tables.
          for (let i = 0; i < processes; i++) servers.push(await startServer(t.dir, env, `The server of ${t.label}`));
          const client = new pg.Client({ connectionString: env.DATABASE_URL });
          await client.connect();
          clients.push(client);
          servers.db = client;
          servers.dbName = db;
          return servers;
        },
        drained: async (u) => Number((await u.servers.db.query("SELECT count(*) AS n FROM outbound_emails WHERE status IN ('pending', 'sending')")).rows[0].n) === 0,
        withPrice: false,
        extraCpu: [postgres.pid],
        statements,
      });
      for (const c of clients) await c.end();
    }
  } finally {
    await statementsDb?.end();
    await postgres.stop();
  }
}

mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/ab.json'), `${JSON.stringify(report, null, 2)}\n`);
const rows = [];
for (const [name, r] of Object.entries(report.setups)) {
  for (const key of ['given', 'working_tree']) {
    const t = r[key];
    rows.push({
      setup: name, tree: t.tree, 'booking req/s': t.booking.rps.join(', '), 'p50 ms': t.booking.p50_ms.join(', '), 'p99 ms': t.booking.p99_ms.join(', '),
      'mail sent after (ms)': t.booking.drain_ms.join(', '), 'CPU ms a booking (+ after)': t.booking.cpu_ms_per_booking.map((c, k) => `${c} + ${t.booking.cpu_ms_after_per_booking[k]}`).join(', '), 'price req/s': t.price ? t.price.rps.join(', ') : '', 'non-2xx': t.booking.non_2xx,
    });
  }
}
console.table(rows);
for (const [name, r] of Object.entries(report.setups)) {
  log(`${name}: booking ${r.booking_ratio}x the given commit's (median req/s), ${r.booking_cpu_ratio}x by CPU a booking during the load, median p99 ${r.booking_p99_median_ms.working_tree} ms against ${r.booking_p99_median_ms.given} ms${r.price_ratio ? `; price call ${r.price_ratio}x` : ''}`);
}
log(`Load average at start: ${report.load_average_at_start.join(', ')}. Written to bench/results/ab.json`);
await sleep(0);
