// `npm run bench:steps`: where a booking's time goes, step by step, under load (issue 40).
//
// The working tree's server is started as `npm start` starts it (scripts/bench-lib.mjs startServer) with
// STEP_TIMING=<file> (src/server/timing.ts): each step of POST /booking, of the mail sender, and each database
// statement (with, on PGlite, the wait for the database's turn) is timed. A pay-in-car guest booking with a new
// Idempotency-Key per request is run for STEPS_SECONDS (10) at STEPS_CONNECTIONS (20) after STEPS_WARMUP (2) s, the
// mail queue is waited for until every message is sent, and the server is stopped, which writes the file. Done on
// PGlite and, unless STEPS_PG=0, on one server on a throwaway PostgreSQL.
//
// Writes bench/results/steps.json: how it was taken, the load's throughput and latency, and per step its count,
// count per booking, mean, p50, p90, p99, max and total ms per booking. The warm-up's steps are counted too (the
// server cannot tell them apart); per booking divides by every booking made.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startThrowawayPostgres } from './pg-throwaway.mjs';
import { bookingLoad, bookingRequest, load, log, outboxCount, round, settle, settleCount, startServer } from './bench-lib.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const seconds = Number(process.env.STEPS_SECONDS) || 10;
const connections = Number(process.env.STEPS_CONNECTIONS) || 20;
const warmup = Number(process.env.STEPS_WARMUP ?? 2);
const runId = randomUUID().slice(0, 8);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-steps-'));

async function measure(name, env, drained) {
  const file = path.join(scratch, `${name}.json`);
  const server = await startServer(root, { ...env, STEP_TIMING: file }, `The ${name} server`);
  let result;
  try {
    const { body } = await bookingRequest(server.url);
    let made = 1;
    if (warmup > 0) made += (await load(connections, bookingLoad(server.url, body, runId, `${name}-warm`), warmup))['2xx'];
    log(`${name}: bookings for ${seconds} s at ${connections} connections...`);
    const r = await load(connections, bookingLoad(server.url, body, runId, name), seconds);
    made += r['2xx'];
    const drainMs = await settle(() => drained(server));
    result = {
      load: {
        requests_per_second: Math.round(r.requests.total / r.duration), p50_ms: r.latency.p50, p99_ms: r.latency.p99, max_ms: r.latency.max,
        ok: r['2xx'], non_2xx: r.non2xx, errors: r.errors, mail_sent_ms_after_the_load: drainMs,
      },
      bookings_timed: made,
    };
  } finally {
    await server.stop(); // writes the timing file
  }
  const steps = JSON.parse(readFileSync(file, 'utf8'));
  result.steps = Object.fromEntries(Object.entries(steps).map(([step, s]) => [step, {
    ...s, per_booking: round(s.count / result.bookings_timed), ms_per_booking: round(s.total_ms / result.bookings_timed, 3),
  }]));
  return result;
}

const report = {
  date: new Date().toISOString(), machine: `${os.cpus().length} cores, node ${process.version}`, load_average_at_start: os.loadavg().map((n) => round(n)),
  how: `npm run bench:steps: the working tree's server (npm start, NODE_ENV=production, CARD_GATEWAY=test, allowances raised) with STEP_TIMING; `
    + `a pay-in-car guest booking, new Idempotency-Key per request, ${warmup} s warm-up then ${seconds} s at ${connections} connections; `
    + 'steps are wall time (waits included); "db ..." rows are each statement, on PGlite from its turn on the database, with the wait for the turn apart.',
};
try {
  report.pglite = await measure('pglite', {}, async (s) => { await settleCount(() => outboxCount(s.dataDir), 500); return true; });
  if (process.env.STEPS_PG !== '0') {
    const postgres = await startThrowawayPostgres();
    try {
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query('CREATE DATABASE steps');
      await admin.end();
      const url = `${postgres.url.replace(/\/postgres$/, '')}/steps`;
      const db = new pg.Client({ connectionString: url });
      let connected = false;
      report.postgres = await measure('postgres', { DATABASE_URL: url, SERVER_SECRET: `bench-${runId}` }, async () => {
        if (!connected) { await db.connect(); connected = true; }
        return Number((await db.query("SELECT count(*) AS n FROM outbound_emails WHERE status IN ('pending', 'sending')")).rows[0].n) === 0;
      });
      report.postgres.version = postgres.version;
      if (connected) await db.end();
    } finally {
      await postgres.stop();
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/steps.json'), `${JSON.stringify(report, null, 2)}\n`);
for (const name of ['pglite', 'postgres']) {
  const r = report[name];
  if (!r) continue;
  log(`\n${name}: ${r.load.requests_per_second} bookings/s, p50 ${r.load.p50_ms} ms, p99 ${r.load.p99_ms} ms; mail all sent ${r.load.mail_sent_ms_after_the_load} ms after the load`);
  console.table(Object.fromEntries(Object.entries(r.steps).map(([step, s]) => [step, {
    'per booking': s.per_booking, 'mean ms': s.mean_ms, 'p50 ms': s.p50_ms, 'p99 ms': s.p99_ms, 'ms per booking': s.ms_per_booking,
  }])));
}
log('Written to bench/results/steps.json');
