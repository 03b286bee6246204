// `npm run bench:api`: the API under load next to its floors, all measured in this one run, on this machine.
//
//  1. Floor of HTTP: a Hono hello-world POST (@hono/node-server, its own process), same autocannon settings and body
//     as the price call.
//  2. PGlite: a server started as `npm start` starts it (package.json), in a new data folder. Its memory (RSS) after
//     start, the price call at BENCH_PRICE_CONNECTIONS (20), a pay-in-car guest booking with a fresh
//     Idempotency-Key per request at each of BENCH_CONNECTIONS (20,50), its memory after the run.
//  3. Floor of the booking's writes on PGlite: scripts/bench-floor-db.mjs, the same rows in one transaction, no HTTP.
//  4. PostgreSQL (a throwaway server, scripts/pg-throwaway.mjs; BENCH_PG=0 skips it): the floor of the same writes
//     (BENCH_PG_FLOOR_CONCURRENCY connections, 10 as the server's pool), the booking with one server process, then
//     with two processes on the same database sharing the load (two autocannon instances, half the connections
//     each). Each floor is also run with its statements prepared, for information (a tighter floor than the issue's).
//     Then what two processes must share: the bookings against the successful answers (each key used once),
//     duplicate keys sent to both processes at once (one booking each, the same answer), every confirmation sent
//     once (the outbox files of both), and the sign-in limit counted in the database, not per process.
//
// Writes bench/results/api.json (each measure with now / floor / ratio / target / met) and prints the table. Env:
// BENCH_SECONDS (6) per load, BENCH_ROUNDS (3), BENCH_CONNECTIONS (20,50), BENCH_PRICE_CONNECTIONS (20), BENCH_PG (1),
// BENCH_DUPLICATE_KEYS (40), BENCH_URL (only the PGlite part, against a server already running).
//
// A measure and its floor take turns: BENCH_SECONDS of each is run as BENCH_ROUNDS slices, floor then server, so
// load from elsewhere on the machine falls on both alike. Requests per second are the slices' total over their time;
// p50 is the slices' mean, p99 and the slowest request their worst. BENCH_WARMUP (1) seconds of each go first, uncounted.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startThrowawayPostgres } from './pg-throwaway.mjs';
import {
  bookingLoad, bookingRequest, freePort, headers, load as loadRun, log, merged, outboxCount, post, priceBody, round, rssMiB, settle,
  sleep, startServer, summarise, waitForApi,
} from './bench-lib.mjs';

const root = new URL('..', import.meta.url).pathname;
const seconds = Number(process.env.BENCH_SECONDS) || 6;
const levels = (process.env.BENCH_CONNECTIONS || '20,50').split(',').map(Number).filter((n) => n > 0);
const priceConnections = Number(process.env.BENCH_PRICE_CONNECTIONS) || 20;
const withPostgres = process.env.BENCH_PG !== '0';
const duplicateKeys = Number(process.env.BENCH_DUPLICATE_KEYS) || 40;
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS) || 3);
const slice = Math.max(1, seconds / rounds);
/** Seconds of each load run first and not counted: the JIT warms up on the code being measured (BENCH_WARMUP). */
const warmup = Number(process.env.BENCH_WARMUP ?? 1);
const pgFloorConcurrency = Number(process.env.BENCH_PG_FLOOR_CONCURRENCY) || 10;
const runId = randomUUID().slice(0, 8);
/** The Hono hello-world floor: its own process, answering a POST after reading its body. */
async function startHello() {
  const port = await freePort();
  const code = `import { Hono } from 'hono'; import { serve } from '@hono/node-server';
    const app = new Hono(); app.post('/hello', async (c) => { await c.req.text(); return c.json({ hello: 'world' }); });
    app.get('/api/v1/setting', (c) => c.json([]));
    serve({ fetch: app.fetch, port: ${port}, hostname: '127.0.0.1' });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitForApi(url, child, 'The hello-world floor');
  return { url, stop: async () => { const exited = new Promise((r) => child.once('exit', r)); child.kill('SIGTERM'); await exited; } };
}

/** One autocannon run, announced unless `quiet` (scripts/bench-lib.mjs load). */
function load(title, connections, opts, duration = seconds, quiet = false) {
  if (!quiet) log(`${title}: ${duration} s at ${connections} connections...`);
  return loadRun(connections, opts, duration);
}

/**
 * Takes turns: for each round, `floor(slice)` then `measure(slice)`; resolves with both lists of slice results.
 * The floor's and the server's slices alternate, so the machine's other load falls on both alike.
 */
async function inTurns(title, floor, measure) {
  log(`${title}: ${rounds} rounds of ${slice} s, floor then server...`);
  let warm = null;
  if (warmup > 0) { await floor(warmup); warm = await measure(warmup); }
  const floors = [];
  const measures = [];
  for (let i = 0; i < rounds; i++) {
    floors.push(await floor(slice));
    measures.push(await measure(slice));
  }
  return { floors, measures, warm };
}

/** The floor of the booking's writes as a process of its own (scripts/bench-floor-db.mjs), run in slices. */
async function startFloor(kind, options) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-floor-db.mjs', JSON.stringify({ kind, ...options })],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  let buffered = '';
  child.stdout.on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      waiting.shift()?.resolve(line);
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const next = () => new Promise((resolve, reject) => {
    waiting.push({ resolve });
    exited.then((code) => reject(new Error(`The ${kind} floor exited (${code})`)));
  });
  if ((await next()) !== 'ready') throw new Error(`The ${kind} floor did not start`);
  const run = async (secs, prepared = false) => {
    const line = next();
    child.stdin.write(`run ${secs}${prepared ? ' prepared' : ''}\n`);
    return JSON.parse(await line);
  };
  return {
    run,
    /** A slice of the floor, then one of the same writes as prepared statements (a tighter floor, for information). */
    both: async (secs) => ({ plain: await run(secs), prepared: await run(secs, true) }),
    stop: async () => { child.stdin.end(); await exited; },
  };
}

/** Floor slices as one result. */
function floorTotal(slices) {
  const transactions = slices.reduce((n, r) => n + r.transactions, 0);
  const time = slices.reduce((n, r) => n + r.seconds, 0);
  return { transactions, seconds: Math.round(time * 100) / 100, tx_per_second: Math.round(transactions / time), statements_per_tx: slices[0].statements_per_tx, slices: slices.length };
}

const measures = [];
/** One row of the table: higher is better unless `lowerIsBetter`. */
function measure(name, now, floor, target, met, unit = '') {
  const ratio = floor ? round(now / floor) : null;
  measures.push({ measure: name, now: `${now}${unit}`, floor: floor === null ? '' : `${floor}${unit}`, ratio: ratio ?? '', target, met: met === null ? '' : met ? 'yes' : 'NO' });
  return ratio;
}

const report = {
  date: new Date().toISOString(), machine: `${os.cpus().length} cores, node ${process.version}`,
  load_average_at_start: os.loadavg().map((n) => round(n)), seconds, connections: levels, price_connections: priceConnections,
};

// 1-3. PGlite: the server, with the hello-world floor and the raw floor of the writes taking turns with it.
const hello = await startHello();
let sample;
{
  const server = process.env.BENCH_URL ? { url: process.env.BENCH_URL, pid: null, stop: async () => {} } : await startServer(root);
  let floor = null;
  try {
    await sleep(1000); // the start's own work settles
    const memory = { rss_after_start_mib: server.pid ? rssMiB(server.pid) : null, start_ms: server.startMs ?? null };
    const { vehicle, body } = await bookingRequest(server.url);
    const first = await post(server.url, '/booking', body, { 'idempotency-key': `bench-${runId}-sample` });
    if (first.status !== 200) throw new Error(`A booking answered ${first.status}: ${JSON.stringify(first.body)}`);
    sample = { data: first.body.data, vehicle };
    let booked = 1;
    const price = await inTurns(`Price call against the Hono hello-world floor, ${priceConnections} connections`,
      (secs) => load('', priceConnections, { url: `${hello.url}/hello`, method: 'POST', headers, body: priceBody }, secs, true),
      (secs) => load('', priceConnections, { url: `${server.url}/api/v1/calculate-distance-price`, method: 'POST', headers, body: priceBody }, secs, true));
    report.floor_hello = merged(price.floors);
    floor = await startFloor('pglite', { sample });
    const booking = {};
    const floorSlices = [];
    for (const connections of levels) {
      const turns = await inTurns(`PGlite booking against its raw floor, ${connections} connections`, (secs) => floor.both(secs),
        async (secs) => {
          const r = await load('', connections, bookingLoad(server.url, body, runId, `pglite${connections}-${Math.random()}`), secs, true);
          booked += r['2xx'];
          if (server.dataDir) await settle(() => outboxCount(server.dataDir) >= booked);
          return r;
        });
      booking[connections] = merged(turns.measures);
      floorSlices.push(...turns.floors);
    }
    await sleep(3000); // the mail queue drains, the server is idle again
    memory.rss_after_run_mib = server.pid ? rssMiB(server.pid) : null;
    report.pglite = {
      price: merged(price.measures), booking, memory, floor_booking_writes: floorTotal(floorSlices.map((f) => f.plain)),
      floor_booking_writes_prepared: floorTotal(floorSlices.map((f) => f.prepared)),
    };
  } finally {
    await floor?.stop();
    await server.stop();
    await hello.stop();
  }
}

// 4. PostgreSQL.
// No PostgreSQL to start: the PGlite results are still written, and the table says what is missing.
const postgres = withPostgres ? await startThrowawayPostgres().catch((err) => { report.postgres_error = err.message; return null; }) : null;
if (postgres) {
  log(`PostgreSQL ${postgres.version} (${postgres.from})`);
  const servers = [];
  try {
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE floor');
    await admin.query('CREATE DATABASE site');
    await admin.end();
    const baseUrl = postgres.url.replace(/\/postgres$/, '');
    const floorProcess = await startFloor('postgres', { url: `${baseUrl}/floor`, concurrency: pgFloorConcurrency, sample });
    const siteUrl = `${baseUrl}/site`;
    // Cheap password hashes: the sign-in limit check below hashes once per attempt.
    // One SERVER_SECRET for both, as README asks of servers sharing a database (request hashes, reset codes).
    const env = { DATABASE_URL: siteUrl, PASSWORD_HASH_COST: '10', SERVER_SECRET: `bench-secret-${runId}` };
    servers.push(await startServer(root, env));
    servers.push(await startServer(root, env));
    const [one, two] = servers;
    const { body } = await bookingRequest(one.url);
    const connections = levels[0];
    const okKeys = [];
    let n1 = 0;
    const site = new pg.Client({ connectionString: siteUrl });
    await site.connect();
    const unsent = async () => Number((await site.query("SELECT count(*) AS n FROM outbound_emails WHERE status <> 'sent'")).rows[0].n);
    const turns = await inTurns(`PostgreSQL booking, 1 process, against the raw floor (${pgFloorConcurrency} connections), ${connections} connections`,
      (secs) => floorProcess.both(secs), async (secs) => {
        const r = await load('', connections, bookingLoad(one.url, body, runId, `pg1-${++n1}`, okKeys), secs, true);
        await sleep(200); // answers cut off at the end are still being written
        await settle(async () => (await unsent()) === 0);
        return r;
      });
    await site.end();
    await floorProcess.stop();
    const floor = floorTotal(turns.floors.map((f) => f.plain));
    const floorPrepared = floorTotal(turns.floors.map((f) => f.prepared));
    const single = merged(turns.measures);
    log(`PostgreSQL, 2 processes: POST /booking: ${seconds} s at ${connections} connections, half on each...`);
    const [a, b] = await Promise.all([
      new Promise((resolve, reject) => autocannon({ connections: Math.ceil(connections / 2), duration: seconds, timeout: 60, ...bookingLoad(one.url, body, runId, 'pg2a', okKeys) }, (e, r) => (e ? reject(e) : resolve(r)))),
      new Promise((resolve, reject) => autocannon({ connections: Math.floor(connections / 2), duration: seconds, timeout: 60, ...bookingLoad(two.url, body, runId, 'pg2b', okKeys) }, (e, r) => (e ? reject(e) : resolve(r)))),
    ]);
    const both = { process_1: summarise(a), process_2: summarise(b) };
    both.requests_per_second = both.process_1.requests_per_second + both.process_2.requests_per_second;
    both.max_ms = Math.max(a.latency.max, b.latency.max);

    // What two processes share, checked in the database.
    const db = new pg.Client({ connectionString: siteUrl });
    await db.connect();
    const count = async (sql, params) => Number((await db.query(sql, params)).rows[0].n);
    // Each key was sent once: every key answered 2xx has exactly one booking, and the only other bookings are the
    // requests still on their way when a load ended (autocannon stops without reading their answers).
    const okAnswers = (turns.warm?.['2xx'] ?? 0) + single.ok + both.process_1.ok + both.process_2.ok;
    const loadBookings = await count("SELECT count(*) AS n FROM bookings WHERE idempotency_key LIKE $1 AND idempotency_key NOT LIKE '%-dup-%'", [`bench-${runId}-pg%`]);
    const okKeysBooked = await count('SELECT count(*) AS n FROM bookings WHERE idempotency_key = ANY($1::text[])', [okKeys]);
    const keysWithMore = await count('SELECT count(*) AS n FROM (SELECT idempotency_key FROM bookings WHERE idempotency_key LIKE $1 GROUP BY 1 HAVING count(*) > 1) x', [`bench-${runId}-%`]);
    // Duplicate keys: each sent four times at once, twice to each process.
    const dupResults = await Promise.all(Array.from({ length: duplicateKeys }, async (_, i) => {
      const key = `bench-${runId}-dup-${i}`;
      const answers = await Promise.all([one, two, one, two].map((s) => post(s.url, '/booking', body, { 'idempotency-key': key })));
      return { key, statuses: answers.map((r) => r.status), numbers: new Set(answers.map((r) => r.body?.data?.booking?.booking_number)) };
    }));
    const perKey = await db.query('SELECT idempotency_key, count(*)::int AS n FROM bookings WHERE idempotency_key LIKE $1 GROUP BY 1', [`bench-${runId}-dup-%`]);
    const duplicates = {
      keys: duplicateKeys, requests: duplicateKeys * 4,
      all_200: dupResults.every((r) => r.statuses.every((s) => s === 200)),
      one_answer_per_key: dupResults.every((r) => r.numbers.size === 1),
      keys_with_one_booking: perKey.rows.filter((r) => r.n === 1).length,
      keys_with_more: perKey.rows.filter((r) => r.n > 1).length,
      statuses: dupResults.flatMap((r) => r.statuses).reduce((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}),
    };
    // Every message sent once: both queues drain, each message (a confirmation, and the office's and the company's
    // notices of each booking) to one outbox.
    const deadline = Date.now() + 60_000;
    while (await count("SELECT count(*) AS n FROM outbound_emails WHERE status <> 'sent'") > 0 && Date.now() < deadline) await sleep(500);
    const messages = servers.flatMap((s) => (existsSync(path.join(s.dataDir, 'outbox')) ? readdirSync(path.join(s.dataDir, 'outbox')) : [])
      .map((f) => {
        const text = readFileSync(path.join(s.dataDir, 'outbox', f), 'utf8');
        return { to: /^To: (.*)$/m.exec(text)?.[1] ?? '', subject: /^Subject: (.*)$/m.exec(text)?.[1] ?? f };
      }));
    const prefix = [`bench-${runId}-%`];
    const bookingsTotal = await count('SELECT count(*) AS n FROM bookings WHERE idempotency_key LIKE $1', prefix);
    const mail = {
      bookings: bookingsTotal,
      emails_rows: await count('SELECT count(*) AS n FROM outbound_emails e JOIN bookings b ON b.id = e.booking_id WHERE b.idempotency_key LIKE $1', prefix),
      emails_not_sent: await count("SELECT count(*) AS n FROM outbound_emails WHERE status <> 'sent'"),
      emails_claimed_twice: await count('SELECT count(*) AS n FROM outbound_emails WHERE attempts <> 1'),
      outbox_files: messages.length, outbox_files_by_process: servers.map((s) => (existsSync(path.join(s.dataDir, 'outbox')) ? readdirSync(path.join(s.dataDir, 'outbox')).length : 0)),
      distinct_messages: new Set(messages.map((m) => `${m.to} ${m.subject}`)).size,
      confirmations: messages.filter((m) => m.subject.startsWith('Booking confirmed:')).length,
    };
    // The sign-in limit (10 wrong passwords per e-mail and address in 15 minutes) is counted in the database: the
    // attempts go to the two processes in turn, and the 11th is refused by whichever process gets it.
    const throttleStatuses = [];
    for (let i = 0; i < 14; i++) {
      const s = servers[i % 2];
      throttleStatuses.push((await post(s.url, '/check-passenger-email', { email: `limit-${runId}@example.com`, password: 'wrong-password' })).status);
    }
    const signInLimit = {
      attempts: throttleStatuses.length, statuses_in_turn: throttleStatuses,
      first_refused_attempt: throttleStatuses.indexOf(429) + 1,
      counted_in_database: await count("SELECT max(attempts) AS n FROM auth_throttle WHERE scope = 'pair' AND email = $1", [`limit-${runId}@example.com`]),
    };
    await db.end();
    report.postgres = {
      version: `${postgres.version} (${postgres.from})`, connections, floor_booking_writes: floor, floor_booking_writes_prepared: floorPrepared,
      booking_1_process: single, booking_2_processes: both,
      two_process_ratio: round(both.requests_per_second / single.requests_per_second),
      no_duplicates: {
        ok_answers_under_load: okAnswers, ok_keys_recorded: okKeys.length, ok_keys_with_their_booking: okKeysBooked,
        bookings_under_load: loadBookings, cut_off_at_the_end: loadBookings - okKeysBooked, connections_at_the_ends: connections * (rounds + 2),
        keys_with_more_than_one_booking: keysWithMore,
        equal: okKeys.length === okAnswers && okKeysBooked === okAnswers && loadBookings - okKeysBooked <= connections * (rounds + 2) && keysWithMore === 0,
        duplicate_keys: duplicates,
      },
      mail_once: mail, shared_sign_in_limit: signInLimit,
      other_limits: 'DB_QUEUE_LIMIT (503 when the embedded database is busy) is per process by design and applies to PGlite only; on PostgreSQL admit() does nothing and the pool queues.',
    };
  } finally {
    for (const s of servers) await s.stop();
    await postgres.stop();
  }
}

// The table.
const hp = report.floor_hello.requests_per_second;
const pr = report.pglite.price;
measure(`price call, ${priceConnections} connections (req/s)`, pr.requests_per_second, hp, '>= 0.15', pr.requests_per_second / hp >= 0.15);
measure(`price call p99 (ms)`, pr.p99_ms, null, '< 20', pr.p99_ms < 20);
const pf = report.pglite.floor_booking_writes.tx_per_second;
for (const c of levels) {
  const b = report.pglite.booking[c];
  measure(`booking PGlite, ${c} connections (req/s)`, b.requests_per_second, pf, '>= 0.6', b.requests_per_second / pf >= 0.6);
}
const pp = report.pglite.floor_booking_writes_prepared.tx_per_second;
measure(`(information) booking PGlite, ${levels[0]} connections, against the same writes prepared`, report.pglite.booking[levels[0]].requests_per_second, pp, 'none', null);
const at50 = report.pglite.booking[levels.at(-1)];
measure(`booking PGlite p99/p50, ${levels.at(-1)} connections`, at50.p99_over_p50, null, '<= 5', at50.p99_over_p50 <= 5);
const maxMs = Math.max(...levels.map((c) => report.pglite.booking[c].max_ms));
measure('booking PGlite slowest request (ms)', maxMs, null, '<= 2000', maxMs <= 2000);
if (!report.postgres) {
  measure('PostgreSQL', withPostgres ? `not measured: ${report.postgres_error}` : 'skipped (BENCH_PG=0)', null, 'measured', false);
}
if (report.postgres) {
  const p = report.postgres;
  const f = p.floor_booking_writes.tx_per_second;
  measure(`booking PostgreSQL, 1 process, ${p.connections} connections (req/s)`, p.booking_1_process.requests_per_second, f, '>= 0.6', p.booking_1_process.requests_per_second / f >= 0.6);
  measure('(information) booking PostgreSQL, 1 process, against the same writes prepared', p.booking_1_process.requests_per_second, p.floor_booking_writes_prepared.tx_per_second, 'none', null);
  measure(`booking PostgreSQL, 2 processes (req/s)`, p.booking_2_processes.requests_per_second, p.booking_1_process.requests_per_second, 'reported', null);
  const d = p.no_duplicates;
  measure('2 processes: each 2xx key has 1 booking', `${d.ok_keys_with_their_booking} of ${d.ok_answers_under_load} (+${d.cut_off_at_the_end} cut off at the end), ${d.keys_with_more_than_one_booking} with more`, null, 'all, none', d.equal);
  const k = d.duplicate_keys;
  measure(`2 processes: ${k.keys} keys sent 4 times each`, `${k.keys_with_one_booking} with 1 booking, ${k.keys_with_more} with more`, null, 'one each',
    k.keys_with_one_booking === k.keys && k.keys_with_more === 0 && k.one_answer_per_key && k.all_200);
  const m = p.mail_once;
  measure('2 processes: each message sent once', `${m.outbox_files} files of ${m.emails_rows} messages, ${m.distinct_messages} distinct, ${m.confirmations} confirmations for ${m.bookings} bookings`, null, 'once each',
    m.outbox_files === m.emails_rows && m.distinct_messages === m.emails_rows && m.confirmations === m.bookings
      && m.emails_not_sent === 0 && m.emails_claimed_twice === 0);
  const s = p.shared_sign_in_limit;
  measure('2 processes: sign-in limit shared', `429 from attempt ${s.first_refused_attempt}`, null, 'attempt 11', s.first_refused_attempt === 11);
}
const mem = report.pglite.memory;
measure('server RSS PGlite after start / after run (MiB)', `${mem.rss_after_start_mib} / ${mem.rss_after_run_mib}`, null, 'reported', null);
report.measures = measures;

mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/api.json'), `${JSON.stringify(report, null, 2)}\n`);
console.table(measures);
const detail = [];
detail.push({ run: 'hello floor', ...report.floor_hello });
detail.push({ run: 'price PGlite', ...report.pglite.price });
for (const c of levels) detail.push({ run: `booking PGlite ${c}`, ...report.pglite.booking[c] });
if (report.postgres) {
  detail.push({ run: 'booking PG 1 process', ...report.postgres.booking_1_process });
  detail.push({ run: 'booking PG 2 processes (a)', ...report.postgres.booking_2_processes.process_1 });
  detail.push({ run: 'booking PG 2 processes (b)', ...report.postgres.booking_2_processes.process_2 });
}
console.table(detail.map(({ run, requests_per_second, p50_ms, p99_ms, max_ms, ok, non_2xx, errors }) => ({ run, rps: requests_per_second, p50_ms, p99_ms, max_ms, ok, non_2xx, errors })));
log(`Floors: PGlite writes ${pf} tx/s (prepared ${pp})${report.postgres ? `, PostgreSQL writes ${report.postgres.floor_booking_writes.tx_per_second} tx/s (prepared ${report.postgres.floor_booking_writes_prepared.tx_per_second})` : ''}. `
  + `Load average at start: ${report.load_average_at_start.join(', ')}. Written to bench/results/api.json`);
