// `npm run bench:live`: following the car live, under load (issue 41 §5). "200 drivers posting a position every 10 s
// and 2,000 passengers following, on one process with PGlite and on two processes with PostgreSQL. A status change
// reaches its watcher within 2 s at p99; memory and database size stay flat over a 10-minute run."
//
// How it is measured (the choices, in order):
//
// Servers, started as the other benchmarks start them (scripts/bench-lib.mjs startServer: `npm start`'s command,
// NODE_ENV=production, SKIP_SPA_BUILD=1, CARD_GATEWAY=test, a new data folder each), with the booking allowances raised
// (benchLimits) and the drivers' code allowances too (driverCodes, driverCodesPerMobile), TRUST_PROXY=1 so each driver
// and each passenger comes from an address of its own (X-Forwarded-For 10.77.x.y and 10.100.x.y, as phones do),
// PASSWORD_HASH_COST=10 (one staff sign-in), and LIVE_STREAMS_PER_OWNER raised from 5 to FOLLOWERS (10): a process
// takes 5 streams per booking's link by default, and on PGlite all 10 followers of a booking are on one process. The
// other stream limits keep their defaults (100 per address, 5,000 a process).
//   pglite  one server on its embedded database (DATA_DIR a temporary folder);
//   pg      two servers on one database of a throwaway PostgreSQL (scripts/pg-throwaway.mjs), one SERVER_SECRET. The
//           drivers' and the office's requests all go to process 1; each booking's followers are split between the
//           two processes, so half of every delivery must cross processes (LISTEN/NOTIFY). Their latencies are
//           reported apart.
//
// Set-up (not timed): a member of staff (`npm run admin -- add-staff`, through the server's admin door on PGlite),
// signed in; DRIVERS (200) drivers and cars on record for Albion Executive Cars (POST /operator/data); each driver
// signs in with the code texted to them (POST /driver/code, the code read from the text's file in DATA_DIR/sms, POST
// /driver/session); one guest pay-in-car booking per driver (Heathrow T5 to Trafalgar Square, next year, Saloon),
// assigned to them (POST /operator/bookings/:ref/driver); the job taken to On my way, and every other job on to
// Arrived, so the run starts with both kinds of long step under way; FOLLOWERS (10) Server-Sent Events streams per
// booking (GET /manage/:ref/live with its manage key), each waited for until its first event; one board stream per
// process (GET /operator/live, the staff cookie). Then the mail and text queues are let drain.
//
// Run (MINUTES, 10 by default):
//  - every driver whose job is On the way or Arrived posts a position every 10 s (evenly spread over the 10 s by its
//    number, jittered by up to ±0.5 s), moving about 45 m each time around London (well under 200 mph); a driver
//    whose job is at another step, or whose status change is in flight, skips that turn (counted).
//  - status changes: a scheduler takes the job that has waited longest at On the way or Arrived, CHANGES * 2/5 times a
//    second (jittered), and moves it on: On the way -> Arrived; or Arrived -> Passenger on board -> (5 s) Completed,
//    then the driver's next booking is made and assigned, its followers connect (the old booking's leave), 2 s later
//    Accepted, 5 s later On my way. Each cycle is 5 driver status changes, so about CHANGES (3) status changes a second
//    overall, and they never stop. A driver's status change waits for their position request in flight, and the next
//    step of a job waits until the previous one reached all its followers (or 30 s).
//  - each status change: the time from sending the driver's request to each follower of that booking receiving the
//    first event that shows the new status (a watcher delivery); p50/p95/p99/max over all deliveries. One not seen
//    within 30 s, or not seen before the job moves on, is missed. Also to the board: the first `changed` event naming
//    the booking on each board stream.
//  - each position: from sending it to each follower receiving an event whose car.lat is that position; one not seen
//    before the driver's next position (10 s) or the job's next step is missed.
//  - a stream the server ends (its 4.5 to 5.5 minutes are up) is opened again 1 to 3 s later, as a browser's
//    EventSource would; a delivery that comes as the first event of a reopened stream is counted as such (its wait
//    includes the gap). A stream that ends before 4 min 25 s, or fails, is dropped (counted) and reopened the same
//    way; one refused (429, 503...) is counted by its status and tried again the same way.
//  - a position the server answers { stored: false } (sooner than 3 s after the last) is counted apart and not
//    expected at the followers.
//  - every SAMPLE_SECONDS (30) from the start to the end: each server process's resident memory (VmRSS, its process
//    tree), PostgreSQL's (the sum of its processes' PSS, where readable), the database's size (PostgreSQL:
//    pg_database_size, and job_positions' size and dead rows; PGlite: the bytes of DATA_DIR/pglite on disk). The
//    first minute (samples at 0 to 60 s) against the last (the end minus 60 s to the end), and the least-squares
//    slope per minute. The database grows with the bookings the run makes (one per finished job: reported with it).
//  - CPU over the run: the servers' process trees, PostgreSQL's, and this load generator's (one Node process, no JSON
//    parsing of events: the status and the car's latitude are found by their keys); and this process's event-loop
//    delay (p99), since a late loop would add to every latency measured here.
//  - with --heap-snapshots DIR, each server writes a V8 heap snapshot into DIR (Node's --heapsnapshot-signal) once the
//    set-up is done and again once the run is over, before its streams close: neither pause is inside the measured
//    run. `node scripts/heap-diff.mjs A B` then says what the live heap gained between them, by kind of object.
//  - the servers run with the memory allocator's settings a deployment gives them (scripts/deployed-malloc.mjs,
//    decision 64) unless the environment sets its own; `--malloc default` leaves glibc's defaults.
//
// Prints a Markdown table and writes it with how it was taken to bench/results/live-<date>.md (live-<date>-<only>.md
// with --only), the raw figures beside it (.json).
//
// Usage: npm run bench:live [-- --minutes N] [--only pglite|pg] [--drivers 200] [--followers 10] [--changes 3]
//        [--sample-seconds 30] [--heap-snapshots DIR] [--malloc deployed|default]
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startThrowawayPostgres } from './pg-throwaway.mjs';
import { DEPLOYED_MALLOC } from './deployed-malloc.mjs';
import { benchLimits, headers as apiHeaders, log, processTreeCpuMs, round, sleep, startServer } from './bench-lib.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const { values: opts } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' }, only: { type: 'string' }, drivers: { type: 'string', default: '200' },
    followers: { type: 'string', default: '10' }, changes: { type: 'string', default: '3' }, 'sample-seconds': { type: 'string', default: '30' },
    'heap-snapshots': { type: 'string' }, malloc: { type: 'string', default: 'deployed' },
  },
});
const MINUTES = Number(opts.minutes);
const DRIVERS = Number(opts.drivers);
const FOLLOWERS = Number(opts.followers);
const CHANGES = Number(opts.changes);
const SAMPLE_SECONDS = Number(opts['sample-seconds']);
if (!(MINUTES > 0) || !(DRIVERS >= 2) || !(FOLLOWERS >= 1) || !(CHANGES > 0) || !(SAMPLE_SECONDS > 0)) {
  console.error('Usage: npm run bench:live [-- --minutes N] [--only pglite|pg] [--drivers 200] [--followers 10] [--changes 3] [--sample-seconds 30] [--heap-snapshots DIR] [--malloc deployed|default]');
  process.exit(2);
}
if (opts.only && !['pglite', 'pg'].includes(opts.only)) { console.error('--only is pglite or pg'); process.exit(2); }
const CONFIGS = opts.only ? [opts.only] : ['pglite', 'pg'];

const POSITION_EVERY_MS = 10_000;
const SHORT_STEP_MS = 5_000; // Accepted -> On my way, Passenger on board -> Completed
const ACCEPT_AFTER_MS = 2_000; // a new job's followers are connected -> Accepted
const DELIVERY_TIMEOUT_MS = 30_000;
const FIRST_EVENT_TIMEOUT_MS = 15_000;
// A stream ends after 5 minutes by design, spread by a tenth either way (src/server/live/sse.ts STREAM_MS): one that
// ends sooner than this was dropped.
const SCHEDULED_END_MS = 265_000;
const runId = randomUUID().slice(0, 8);
const year = new Date().getUTCFullYear() + 1;

// ---------------------------------------------------------------------------------------------------------------
// HTTP: one keep-alive pool for requests, one socket per stream.
const apiAgent = new http.Agent({ keepAlive: true, maxSockets: 48 });
const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

/** One API call; never rejects (status 0 for a network error). */
function call(server, method, pathName, body, extra = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? null : JSON.stringify(body);
    const req = http.request({
      host: '127.0.0.1', port: server.port, method, path: `/api/v1${pathName}`, agent: apiAgent,
      headers: { ...apiHeaders, ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}), ...extra },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode, text, headers: res.headers }));
      res.on('error', (e) => resolve({ status: 0, text: e.message, headers: {} }));
    });
    req.setTimeout(60_000, () => req.destroy(new Error('no answer in 60 s')));
    req.on('error', (e) => resolve({ status: 0, text: e.message, headers: {} }));
    req.end(payload ?? undefined);
  });
}
const json = (r) => { try { return JSON.parse(r.text); } catch { return null; } };
const cookieOf = (r) => (r.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');

/** A set-up call, tried again while the server is busy (503) or the connection failed; throws on another answer. */
async function must(server, method, pathName, body, extra, what) {
  for (let attempt = 1; ; attempt++) {
    const r = await call(server, method, pathName, body, extra);
    if (r.status === 200) return r;
    if ((r.status === 503 || r.status === 0) && attempt < 30) { await sleep(200 * attempt); continue; }
    throw new Error(`${what}: ${method} ${pathName} answered ${r.status}: ${r.text.slice(0, 400)}`);
  }
}

/** Runs `fn` over `items`, `concurrency` at a time. */
async function pool(items, concurrency, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) { const i = next++; await fn(items[i], i); }
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Figures.
const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] : null);
function dist(values) {
  const s = Float64Array.from(values).sort();
  const r = (v) => (v === null ? null : Math.round(v));
  return { n: s.length, p50: r(pct(s, 0.5)), p95: r(pct(s, 0.95)), p99: r(pct(s, 0.99)), max: r(s.length ? s[s.length - 1] : null) };
}
const fmtDist = (d) => (d.n ? `${d.p50} / ${d.p95} / ${d.p99} / ${d.max}` : 'none');
const mib = (bytes) => round(bytes / 1024 / 1024, 1);
const count = (map, key) => { map[key] = (map[key] ?? 0) + 1; };

/** Least-squares slope of y over x. */
function slope(xs, ys) {
  const n = xs.length;
  if (n < 2) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0; let den = 0;
  for (let i = 0; i < n; i++) { num += (xs[i] - mx) * (ys[i] - my); den += (xs[i] - mx) ** 2; }
  return den ? num / den : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Processes: memory and disk.
function procTable() {
  const table = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      table.set(Number(entry), Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  return table;
}
function treeOf(rootPid) {
  const parents = procTable();
  const tree = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parents) if (!tree.has(pid) && tree.has(ppid)) { tree.add(pid); grew = true; }
  }
  return [...tree];
}
function memKb(pid, field) {
  try {
    const file = field === 'Pss' ? `/proc/${pid}/smaps_rollup` : `/proc/${pid}/status`;
    const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(file, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch { return null; }
}
/** MiB of a process tree: VmRSS summed (a Node server and whatever it started), or PSS (PostgreSQL's shared buffers once). */
function treeMiB(rootPid, field = 'VmRSS') {
  let kb = 0;
  for (const pid of treeOf(rootPid)) {
    const v = memKb(pid, field) ?? (field === 'Pss' ? memKb(pid, 'VmRSS') : null);
    if (v !== null) kb += v;
  }
  return round(kb / 1024, 1);
}
/**
 * MiB of a process's WebAssembly memory that is resident (PGlite's database engine runs there): V8 reserves each
 * memory as one address range and makes its used part readable and writable, so it is the rw-p mapping just below a
 * reserved (---p) range of 4 GiB or more (/proc/<pid>/smaps). An estimate, to tell PGlite's memory from the rest.
 */
function wasmMiB(pid) {
  let text;
  try { text = readFileSync(`/proc/${pid}/smaps`, 'utf8'); } catch { return null; }
  const maps = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) /.exec(line);
    if (head) { cur = { start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3], rssKb: 0 }; maps.push(cur); continue; }
    if (cur && line.startsWith('Rss:')) cur.rssKb = Number(/(\d+)/.exec(line)[1]);
  }
  const byEnd = new Map(maps.filter((m) => m.perms === 'rw-p').map((m) => [m.end, m]));
  let kb = 0;
  for (const m of maps) {
    if (m.perms === '---p' && m.end - m.start >= 4n * 2n ** 30n) kb += byEnd.get(m.start)?.rssKb ?? 0;
  }
  return round(kb / 1024, 1);
}
function dirBytes(dir) {
  let total = 0;
  let entries;
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return 0; }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += dirBytes(p);
    else { try { total += statSync(p).size; } catch { /* gone */ } }
  }
  return total;
}

// ---------------------------------------------------------------------------------------------------------------
// Texts: the drivers' sign-in codes, read from the text files the servers write (src/server/mail/sms.ts smsFile).
function codesIn(dirs) {
  const codes = new Map();
  for (const dir of dirs) {
    let names;
    try { names = readdirSync(dir); } catch { continue; }
    for (const name of names.sort()) {
      if (!name.endsWith('.txt')) continue;
      let text;
      try { text = readFileSync(path.join(dir, name), 'utf8'); } catch { continue; }
      const to = /^To: (\S+)/m.exec(text)?.[1];
      const code = /^(\d{6}) is your /m.exec(text)?.[1];
      if (to && code) codes.set(to, code);
    }
  }
  return codes;
}

/** `npm run admin -- ...` against a server's database (through its door on PGlite). */
function admin(env, args) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/admin.ts', ...args], {
    cwd: root, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production', CARD_GATEWAY: 'test', DATABASE_URL: '', PASSWORD_HASH_COST: '10', ...env },
  });
  if (r.status !== 0) throw new Error(`npm run admin -- ${args[0]} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

// ---------------------------------------------------------------------------------------------------------------
// One configuration's run.
async function runConfig(name, servers, { dbSize, extraCpuRoots = [], pgPid = null }) {
  const office = servers[0];
  const driverServer = servers[0];
  const stats = {
    errors: {}, // "kind status" -> count
    statusLat: servers.map(() => []), statusViaReopen: 0, statusMissed: 0, statusDeliveriesExpected: 0,
    posLat: servers.map(() => []), posMissed: 0, posExpected: 0,
    boardLat: servers.map(() => []), boardMissed: 0,
    statusAnswer: [], posAnswer: [], statusSent: 0, statusOk: 0, posSent: 0, posOk: 0, posSkipped: 0,
    bookingsMade: 0, streamsOpened: 0, reopenedScheduled: 0, dropped: 0, refused: {}, noFirstEvent: 0,
  };
  const err = (kind, status) => count(stats.errors, `${kind} ${status}`);

  // Staff.
  log(`${name}: set-up: staff, ${DRIVERS} drivers and cars...`);
  const email = `bench.${runId}@example.com`;
  const password = `Bench-${runId}-Live-Desk`;
  admin(name === 'pglite' ? { DATA_DIR: office.dataDir } : { DATABASE_URL: office.databaseUrl, DATA_DIR: office.dataDir },
    ['add-staff', '--email', email, '--name', 'Bench Desk', '--role', 'admin', '--password', password]);
  const signIn = await must(office, 'POST', '/operator/session', { email, password }, {}, 'staff sign-in');
  const staff = { cookie: cookieOf(signIn) };
  const cars0 = json(await must(office, 'GET', '/operator/data/cars', undefined, { cookie: staff.cookie }, 'cars')).data;
  const company = cars0.companies.find((c) => c.company_name === 'Albion Executive Cars') ?? cars0.companies[0];
  const saloon = cars0.vehicle_types.find((v) => v.category_name === 'Saloon') ?? cars0.vehicle_types[0];

  // Drivers and cars on record.
  const letters = 'ABCDEFGHJKLMNPRSTUVWXY';
  const slots = Array.from({ length: DRIVERS }, (_, i) => {
    const n = Math.floor(i / 90);
    const reg = `BL${10 + (i % 90)} ${letters[Math.floor(n / 484) % 22]}${letters[Math.floor(n / 22) % 22]}${letters[n % 22]}`;
    return {
      i, mobileTyped: `07800 ${100000 + i}`, mobile: `+447800${100000 + i}`, registration: reg,
      xff: `10.77.${(i >> 8) & 255}.${i & 255}`,
      // Around London, each heading its own way.
      lat: 51.42 + Math.random() * 0.18, lon: -0.3 + Math.random() * 0.35, dLat: (Math.random() - 0.5) * 0.0006, dLon: (Math.random() - 0.5) * 0.0008,
      status: null, booking: null, followers: [], pending: null, posPending: null, busy: false, posBusy: null, active: true,
    };
  });
  await pool(slots, 4, async (s) => {
    await must(office, 'POST', '/operator/data', { change: {
      kind: 'driver', name: `Bench Driver ${s.i + 1}`, mobile: s.mobileTyped, email: '', licence_number: `BL${runId}${s.i}`.toUpperCase().slice(0, 30),
      licensing_authority: 'Transport for London', licence_expiry: '2035-12-31', company_id: company.id, active: 'yes',
    } }, { cookie: staff.cookie }, 'driver record');
    await must(office, 'POST', '/operator/data', { change: {
      kind: 'car', registration: s.registration, make: 'Toyota', model: 'Prius', colour: 'Silver', vehicle_type_id: saloon.id, passengers: '4',
      suitcases: '2', wheelchair: 'no', licence_number: `PHV ${runId} ${s.i}`.toUpperCase(), licence_expiry: '2035-12-31', mot_expiry: '2035-12-31',
      insurance_expiry: '2035-12-31', company_id: company.id, active: 'yes',
    } }, { cookie: staff.cookie }, 'car record');
  });
  const drivers = json(await must(office, 'GET', '/operator/data/drivers', undefined, { cookie: staff.cookie }, 'drivers')).data.drivers;
  const cars = json(await must(office, 'GET', '/operator/data/cars', undefined, { cookie: staff.cookie }, 'cars')).data.cars;
  const driverId = new Map(drivers.map((d) => [d.mobile, d.id]));
  const carId = new Map(cars.map((c) => [c.registration, c.id]));
  for (const s of slots) {
    s.driverId = driverId.get(s.mobile);
    s.carId = carId.get(s.registration);
    if (!s.driverId || !s.carId) throw new Error(`Driver ${s.mobile} or car ${s.registration} not on the record after adding them`);
  }

  // Drivers sign in with the code texted to them.
  log(`${name}: set-up: ${DRIVERS} drivers sign in with their texted codes...`);
  await pool(slots, 8, (s) => must(driverServer, 'POST', '/driver/code', { mobile: s.mobileTyped }, { 'x-forwarded-for': s.xff }, 'driver code'));
  const smsDirs = servers.map((sv) => path.join(sv.dataDir, 'sms'));
  let codes = new Map();
  for (const began = Date.now(); Date.now() - began < 90_000; await sleep(500)) {
    codes = codesIn(smsDirs);
    if (slots.every((s) => codes.has(s.mobile))) break;
  }
  const noCode = slots.filter((s) => !codes.has(s.mobile));
  if (noCode.length) throw new Error(`${noCode.length} drivers' codes were not texted within 90 s (looked in ${smsDirs.join(', ')})`);
  await pool(slots, 8, async (s) => {
    const r = await must(driverServer, 'POST', '/driver/session', { mobile: s.mobileTyped, code: codes.get(s.mobile) }, { 'x-forwarded-for': s.xff }, 'driver sign-in');
    s.headers = { cookie: cookieOf(r), 'x-forwarded-for': s.xff };
  });

  // Bookings: one price call, then each booking for its own passenger.
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: `${year}-06-01`, pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1,
  };
  const prices = json(await must(office, 'POST', '/calculate-distance-price', form, {}, 'price')).price_details;
  const vehicle = prices.find((p) => p.company_name === company.company_name && p.vehicle_type === saloon.category_name)
    ?? prices.find((p) => p.company_name === company.company_name);
  if (!vehicle) throw new Error(`The price call offers nothing of ${company.company_name}`);
  let bookingN = 0;
  let lastError = '';
  async function newBooking(setup) {
    const n = ++bookingN;
    // Ofcom's numbers for drama, 07700 900000 to 900999, are the only 07700 9... numbers the site takes as a mobile:
    // a run of more than 1,000 bookings uses them again (the 30-minute run of 2026-11-28 lost its drivers at 1,000).
    const body = {
      selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, payment_method: 'car', selected_passenger: 'guest_login',
      registrationData: { firstName: 'Live', surname: `Follower ${n}`, number: `07700 900${String(n % 1000).padStart(3, '0')}`, email: `live.${runId}.${n}@example.com` },
    };
    const extra = { 'idempotency-key': `live-${runId}-${n}` };
    const r = setup ? await must(office, 'POST', '/booking', body, extra, 'booking') : await call(office, 'POST', '/booking', body, extra);
    if (r.status !== 200) { err('booking', r.status); lastError = `booking: ${r.status} ${r.text.slice(0, 200)}`; return null; }
    const d = json(r).data;
    if (!setup) stats.bookingsMade++;
    return { ref: d.booking.booking_number, id: d.booking.id, key: d.manage_key };
  }
  async function assign(s, booking, setup) {
    const pathName = `/operator/bookings/${booking.ref}/driver`;
    const body = { driver_id: s.driverId, car_id: s.carId };
    const r = setup ? await must(office, 'POST', pathName, body, { cookie: staff.cookie }, 'assignment') : await call(office, 'POST', pathName, body, { cookie: staff.cookie });
    if (r.status !== 200) { err('assign', r.status); s.lastError = `assignment: ${r.status} ${r.text.slice(0, 200)}`; return false; }
    return true;
  }
  log(`${name}: set-up: ${DRIVERS} bookings, each assigned, accepted and on the way (every other one arrived)...`);
  await pool(slots, 6, async (s) => {
    s.booking = await newBooking(true);
    await assign(s, s.booking, true);
    s.status = 'assigned';
    for (const step of s.i % 2 ? ['accepted', 'on_way', 'arrived'] : ['accepted', 'on_way']) {
      await must(driverServer, 'POST', `/driver/jobs/${s.booking.ref}/status`, { status: step }, s.headers, `step ${step}`);
      s.status = step;
    }
  });

  // Followers.
  const streamHeaders = { ...apiHeaders, accept: 'text/event-stream' };
  delete streamHeaders['content-type'];
  const running = { on: true, measuring: false };
  const statusRe = /"status":(?:"(\w+)"|null)/;
  const latRe = /"car":\{"lat":(-?[\d.eE+-]+)/;

  function onJob(f, data) {
    const now = performance.now();
    const first = !f.gotFirst;
    if (first) { f.gotFirst = true; f.firstResolve?.(); }
    const s = f.slot;
    if (!s.booking || f.bookingId !== s.booking.id) return;
    const p = s.pending;
    if (p && p.t0 && f.seenChange !== p.seq) {
      const st = statusRe.exec(data)?.[1] ?? null;
      if (st === p.status) {
        f.seenChange = p.seq;
        p.seen++;
        if (p.measured) {
          stats.statusLat[f.proc].push(now - p.t0);
          if (first && f.opens > 1) stats.statusViaReopen++;
        }
        if (p.seen >= p.expected) p.done?.();
      }
    }
    const q = s.posPending;
    if (q && q.t0 && f.seenPos !== q.seq) {
      const m = latRe.exec(data);
      if (m && Math.abs(Number(m[1]) - q.lat) < 1e-9) {
        f.seenPos = q.seq;
        q.seen++;
        if (q.measured) stats.posLat[f.proc].push(now - q.t0);
      }
    }
  }

  function openFollower(f) {
    const s = f.slot;
    const b = s.booking;
    const conn = ++f.opens;
    f.bookingId = b.id;
    f.gotFirst = false;
    f.openedAt = Date.now();
    f.buf = '';
    stats.streamsOpened++;
    let over = false;
    const finish = (why) => {
      if (over || f.opens !== conn) return;
      over = true;
      if (f.closed) return;
      if (why === 'refused') { /* counted already */ } else if (Date.now() - f.openedAt >= SCHEDULED_END_MS) stats.reopenedScheduled++;
      else { stats.dropped++; if (running.measuring) log(`  stream of ${b.ref} on process ${f.proc + 1} dropped after ${Date.now() - f.openedAt} ms (${why})`); }
      if (!running.on) return;
      f.timer = setTimeout(() => { if (!f.closed && running.on && s.booking?.id === f.bookingId) openFollower(f); }, 1000 + Math.random() * 2000);
    };
    const req = http.request({
      host: '127.0.0.1', port: servers[f.proc].port, method: 'GET', path: `/api/v1/manage/${b.ref}/live`, agent: streamAgent,
      headers: { ...streamHeaders, 'x-manage-key': b.key, 'x-forwarded-for': f.address },
    }, (res) => {
      if (res.statusCode !== 200) {
        count(stats.refused, res.statusCode);
        res.resume();
        res.on('end', () => finish('refused'));
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        if (f.opens !== conn) return;
        let buf = f.buf + chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) !== -1) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (block.charCodeAt(0) === 58) continue; // ": still here"
          const d = block.indexOf('data: ');
          if (d === -1) continue;
          const nl = block.indexOf('\n', d);
          onJob(f, block.slice(d + 6, nl === -1 ? undefined : nl));
        }
        f.buf = buf;
      });
      res.on('end', () => finish('ended'));
      res.on('close', () => finish('closed'));
      res.on('error', () => finish('error'));
    });
    req.on('error', (e) => finish(`error: ${e.message}`));
    req.end();
    f.req = req;
  }

  function closeFollower(f) {
    f.closed = true;
    clearTimeout(f.timer);
    f.req?.destroy();
  }

  /** Opens a slot's followers for its booking; resolves once each has had its first event (or 15 s). */
  async function follow(s, limit) {
    s.followers = Array.from({ length: FOLLOWERS }, (_, j) => {
      // Each passenger on a phone of their own (X-Forwarded-For, the servers trusting it): the same address for the
      // same place in the run, whichever booking it follows.
      const k = s.i * FOLLOWERS + j;
      return { slot: s, proc: j % servers.length, address: `10.${100 + (k >> 16)}.${(k >> 8) & 255}.${k & 255}`, opens: 0, seenChange: 0, seenPos: 0, closed: false };
    });
    await pool(s.followers, limit, (f) => new Promise((resolve) => {
      const t = setTimeout(() => { stats.noFirstEvent++; resolve(); }, FIRST_EVENT_TIMEOUT_MS);
      f.firstResolve = () => { clearTimeout(t); f.firstResolve = null; resolve(); };
      openFollower(f);
    }));
  }

  // Board streams: one per process, the staff cookie.
  const boards = servers.map((sv, proc) => {
    const board = { proc, req: null, opens: 0 };
    const pendingById = new Map();
    board.pendingById = pendingById;
    const open = () => {
      board.opens++;
      const openedAt = Date.now();
      let over = false;
      const again = () => {
        if (over) return;
        over = true;
        if (Date.now() - openedAt < SCHEDULED_END_MS && running.on) count(stats.errors, `board stream dropped`);
        if (running.on) setTimeout(open, 1000);
      };
      const req = http.request({ host: '127.0.0.1', port: sv.port, method: 'GET', path: '/api/v1/operator/live', agent: streamAgent, headers: { ...streamHeaders, cookie: staff.cookie } }, (res) => {
        if (res.statusCode !== 200) { err('board stream', res.statusCode); res.resume(); res.on('end', again); return; }
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (chunk) => {
          buf += chunk;
          let i;
          while ((i = buf.indexOf('\n\n')) !== -1) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const m = /"id":(\d+)/.exec(block);
            if (!m) continue;
            const p = pendingById.get(Number(m[1]));
            if (p && p.t0 && !p.board[proc]) {
              p.board[proc] = true;
              if (p.measured) stats.boardLat[proc].push(performance.now() - p.t0);
            }
          }
        });
        res.on('end', again);
        res.on('close', again);
      });
      req.on('error', again);
      req.end();
      board.req = req;
    };
    open();
    return board;
  });

  log(`${name}: set-up: ${DRIVERS * FOLLOWERS} followers connect (${FOLLOWERS} a booking${servers.length > 1 ? ', split between the two processes' : ''})...`);
  await pool(slots, 5, (s) => follow(s, FOLLOWERS));
  if (stats.noFirstEvent) log(`  ${stats.noFirstEvent} followers had no first event within ${FIRST_EVENT_TIMEOUT_MS / 1000} s`);

  // Let the mail and text queues drain what the set-up made.
  const outboxCount = () => servers.reduce((n, sv) => n + ['outbox', 'sms'].reduce((k, d) => {
    try { return k + readdirSync(path.join(sv.dataDir, d)).length; } catch { return k; }
  }, 0), 0);
  {
    let last = outboxCount();
    let quietSince = Date.now();
    for (const began = Date.now(); Date.now() - quietSince < 3000 && Date.now() - began < 60_000; await sleep(250)) {
      const now = outboxCount();
      if (now !== last) { last = now; quietSince = Date.now(); }
    }
  }

  // ---- The run.
  const setupStats = { noFirstEvent: stats.noFirstEvent, streamsOpened: stats.streamsOpened, errors: { ...stats.errors } };
  stats.noFirstEvent = 0;
  stats.streamsOpened = 0;
  stats.errors = {};
  const runMs = MINUTES * 60_000;
  log(`${name}: run: ${MINUTES} min, ${DRIVERS} drivers, ${DRIVERS * FOLLOWERS} followers, about ${CHANGES} status changes a second...`);
  let changeSeq = 0;
  let posSeq = 0;

  function finishPosition(s) {
    const q = s.posPending;
    if (!q) return;
    s.posPending = null;
    if (q.measured && q.ok) {
      stats.posExpected += q.expected;
      stats.posMissed += Math.max(0, q.expected - q.seen);
    }
  }

  async function sendPosition(s) {
    if (!running.measuring || !s.active || s.busy || s.posBusy || (s.status !== 'on_way' && s.status !== 'arrived')) { if (running.measuring) stats.posSkipped++; return; }
    finishPosition(s);
    // Moving on, kept inside Greater London.
    s.lat += s.dLat; s.lon += s.dLon;
    if (s.lat < 51.35 || s.lat > 51.68) s.dLat = -s.dLat;
    if (s.lon < -0.45 || s.lon > 0.25) s.dLon = -s.dLon;
    s.lat = Math.round(s.lat * 1e6) / 1e6;
    s.lon = Math.round(s.lon * 1e6) / 1e6;
    const q = { seq: ++posSeq, lat: s.lat, t0: 0, seen: 0, expected: s.followers.length, measured: true, ok: false };
    s.posPending = q;
    stats.posSent++;
    let release;
    s.posBusy = new Promise((r) => { release = r; });
    q.t0 = performance.now();
    const r = await call(driverServer, 'POST', `/driver/jobs/${s.booking.ref}/position`, { lat: s.lat, lng: s.lon, accuracy: 12 }, s.headers);
    stats.posAnswer.push(performance.now() - q.t0);
    s.posBusy = null;
    release();
    if (r.status === 200 && r.text.includes('"stored":true')) { stats.posOk++; q.ok = true; } else {
      err('position', r.status === 200 ? '200 not stored' : r.status);
      if (s.posPending === q) s.posPending = null;
    }
  }

  /** One driver status change, and its deliveries waited for (30 s at most). */
  async function step(s, status) {
    if (s.posBusy) await s.posBusy;
    const p = { seq: ++changeSeq, status, t0: 0, seen: 0, expected: s.followers.length, measured: running.measuring, board: servers.map(() => false) };
    const delivered = new Promise((resolve) => { p.done = resolve; });
    s.pending = p;
    for (const b of boards) b.pendingById.set(s.booking.id, p);
    s.busy = true;
    if (p.measured) stats.statusSent++;
    p.t0 = performance.now();
    const r = await call(driverServer, 'POST', `/driver/jobs/${s.booking.ref}/status`, { status }, s.headers);
    if (p.measured) stats.statusAnswer.push(performance.now() - p.t0);
    s.busy = false;
    if (r.status !== 200) {
      err(`status ${status}`, r.status);
      s.lastError = `${status}: ${r.status} ${r.text.slice(0, 200)}`;
      s.pending = null;
      for (const b of boards) b.pendingById.delete(s.booking.id);
      return false;
    }
    if (p.measured) stats.statusOk++;
    s.status = status;
    if (p.seen < p.expected) await Promise.race([delivered, sleep(DELIVERY_TIMEOUT_MS)]);
    // Let the boards' events come too (they are not waited for beyond the followers').
    await sleep(50);
    if (p.measured) {
      stats.statusDeliveriesExpected += p.expected;
      stats.statusMissed += Math.max(0, p.expected - p.seen);
      stats.boardMissed += p.board.filter((seen) => !seen).length;
    }
    s.pending = null;
    for (const b of boards) if (b.pendingById.get(s.booking.id) === p) b.pendingById.delete(s.booking.id);
    if (status !== 'on_way' && status !== 'arrived') finishPosition(s);
    return true;
  }

  /** Arrived -> on board -> completed -> the next booking -> accepted -> on the way. */
  async function nextJob(s) {
    if (!await step(s, 'on_board')) return false;
    await sleep(SHORT_STEP_MS);
    if (!running.on || !await step(s, 'completed')) return false;
    for (const f of s.followers) closeFollower(f);
    s.followers = [];
    if (Date.now() - t0 >= runMs) return false; // the run is over: no next job
    const booking = await newBooking(false);
    if (!booking || !running.on) return false;
    if (!await assign(s, booking, false)) return false;
    s.booking = booking;
    s.status = 'assigned';
    await follow(s, FOLLOWERS);
    await sleep(ACCEPT_AFTER_MS);
    if (!running.on || !await step(s, 'accepted')) return false;
    await sleep(SHORT_STEP_MS);
    if (!running.on) return false;
    return step(s, 'on_way');
  }

  // Long steps wait in one line, the longest waiting first; a half start at On my way, the others at Arrived.
  const line = [...slots].sort(() => Math.random() - 0.5);
  const flows = new Set();
  const advance = () => {
    const s = line.shift();
    if (!s) return;
    const flow = (async () => {
      const ok = s.status === 'on_way' ? await step(s, 'arrived') : await nextJob(s);
      if (ok) line.push(s);
      else if (running.on && Date.now() - t0 < runMs) {
        s.active = false;
        log(`  ${s.booking?.ref ?? 'a job'}: driver ${s.i + 1} stopped: ${s.lastError || lastError || 'a step failed'}`);
      }
    })();
    flows.add(flow);
    flow.finally(() => flows.delete(flow));
  };

  const cpuRoots = [...servers.map((sv) => sv.pid), ...extraCpuRoots];
  await heapSnapshots(servers, `${name}-start`);
  const cpu0 = processTreeCpuMs(cpuRoots);
  const pgCpu0 = pgPid ? processTreeCpuMs([pgPid]) : 0;
  const self0 = process.cpuUsage();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const samples = [];
  const t0 = Date.now();
  running.measuring = true;
  const sample = async () => {
    const t = (Date.now() - t0) / 1000;
    const row = { t_s: Math.round(t), rss_mib: servers.map((sv) => treeMiB(sv.pid)), ...(await dbSize()) };
    if (pgPid) row.postgres_pss_mib = treeMiB(pgPid, 'Pss');
    else row.wasm_mib = servers.map((sv) => wasmMiB(sv.pid));
    row.streams_open = slots.reduce((n, s) => n + s.followers.filter((f) => !f.closed).length, 0);
    samples.push(row);
    log(`  ${String(row.t_s).padStart(4)} s: RSS ${row.rss_mib.join(' + ')} MiB${row.wasm_mib ? ` (PGlite's WebAssembly memory ${row.wasm_mib.join(' + ')})` : ''}${row.postgres_pss_mib ? `, PostgreSQL ${row.postgres_pss_mib} MiB` : ''}, database ${mib(row.db_bytes)} MiB${row.wal_bytes !== undefined ? ` (log ${mib(row.wal_bytes)})` : ''}; `
      + `status changes ${stats.statusOk}, positions ${stats.posOk}, deliveries ${stats.statusLat.reduce((n, a) => n + a.length, 0)} + ${stats.posLat.reduce((n, a) => n + a.length, 0)}, bookings ${stats.bookingsMade}`);
  };
  await sample();
  const timers = [];
  // Positions: driver i at i/N of each 10 s, jittered.
  for (const s of slots) {
    let due = t0 + (s.i / slots.length) * POSITION_EVERY_MS;
    const tick = () => {
      if (Date.now() - t0 >= runMs) return;
      void sendPosition(s);
      due += POSITION_EVERY_MS;
      timers.push(setTimeout(tick, Math.max(0, due + (Math.random() - 0.5) * 1000 - Date.now())));
    };
    timers.push(setTimeout(tick, Math.max(0, due + Math.random() * 500 - Date.now())));
  }
  // Status changes: CHANGES * 2/5 long steps a second, each 1 or 4 changes.
  const everyMs = 1000 / (CHANGES * 2 / 5);
  const schedule = () => {
    if (Date.now() - t0 >= runMs) return;
    advance();
    timers.push(setTimeout(schedule, everyMs * (0.8 + Math.random() * 0.4)));
  };
  timers.push(setTimeout(schedule, Math.random() * everyMs));
  // Samples.
  for (let k = 1; k * SAMPLE_SECONDS * 1000 <= runMs; k++) {
    await sleep(Math.max(0, t0 + k * SAMPLE_SECONDS * 1000 - Date.now()));
    await sample();
  }
  if (Date.now() - t0 < runMs) { await sleep(t0 + runMs - Date.now()); await sample(); }
  const elapsedMs = Date.now() - t0;
  const cpuMs = processTreeCpuMs(cpuRoots) - cpu0;
  const pgCpuMs = pgPid ? processTreeCpuMs([pgPid]) - pgCpu0 : 0;
  const self = process.cpuUsage(self0);
  loopDelay.disable();
  for (const t of timers) clearTimeout(t);

  // The steps under way finish (their deliveries are measured), then everything closes.
  log(`${name}: run over; waiting for the steps under way...`);
  await Promise.race([Promise.allSettled([...flows]), sleep(45_000)]);
  for (const s of slots) finishPosition(s);
  running.measuring = false;
  await heapSnapshots(servers, `${name}-end`);
  running.on = false;
  for (const s of slots) for (const f of s.followers) closeFollower(f);
  for (const b of boards) b.req?.destroy();

  // The figures.
  const all = (arrays) => arrays.flat();
  const firstMin = samples.filter((r) => r.t_s <= 60);
  const lastMin = samples.filter((r) => r.t_s >= samples.at(-1).t_s - 60);
  const mean = (rows, f) => round(rows.reduce((n, r) => n + f(r), 0) / rows.length, 1);
  const trend = (f) => ({
    first_minute: mean(firstMin, f), last_minute: mean(lastMin, f),
    slope_per_minute: round(slope(samples.map((r) => r.t_s / 60), samples.map(f)) ?? 0, 2),
  });
  const result = {
    config: name, processes: servers.length, minutes: MINUTES, elapsed_s: round(elapsedMs / 1000, 1), drivers: DRIVERS, followers: DRIVERS * FOLLOWERS,
    status_to_watcher_ms: dist(all(stats.statusLat)),
    status_to_watcher_ms_by_process: stats.statusLat.map(dist),
    status_deliveries: { expected: stats.statusDeliveriesExpected, measured: all(stats.statusLat).length, missed: stats.statusMissed, via_reopened_stream: stats.statusViaReopen },
    status_to_board_ms: dist(all(stats.boardLat)), status_to_board_ms_by_process: stats.boardLat.map(dist), board_missed: stats.boardMissed,
    position_to_watcher_ms: dist(all(stats.posLat)), position_to_watcher_ms_by_process: stats.posLat.map(dist),
    position_deliveries: { expected: stats.posExpected, measured: all(stats.posLat).length, missed: stats.posMissed },
    status_changes: { sent: stats.statusSent, ok: stats.statusOk, per_second: round(stats.statusOk / (elapsedMs / 1000), 2), answer_ms: dist(stats.statusAnswer) },
    positions: { sent: stats.posSent, ok: stats.posOk, skipped_turns: stats.posSkipped, per_second: round(stats.posOk / (elapsedMs / 1000), 2), answer_ms: dist(stats.posAnswer) },
    bookings_made: stats.bookingsMade, drivers_stopped: slots.filter((s) => !s.active).length,
    streams: { opened_during_run: stats.streamsOpened, reopened_after_5_min: stats.reopenedScheduled, dropped: stats.dropped, refused: stats.refused, no_first_event: stats.noFirstEvent },
    errors: stats.errors, setup: setupStats,
    rss_mib: servers.map((_, k) => trend((r) => r.rss_mib[k])), rss_total_mib: trend((r) => r.rss_mib.reduce((a, b) => a + b, 0)),
    postgres_pss_mib: pgPid ? trend((r) => r.postgres_pss_mib) : null,
    wasm_mib: pgPid ? null : trend((r) => r.wasm_mib[0] ?? 0),
    db_mib: trend((r) => r.db_bytes / 1048576),
    // PGlite: its write-ahead log's segments (16 MiB each, reused after a checkpoint) within that folder.
    wal_mib: pgPid ? null : trend((r) => r.wal_bytes / 1048576),
    job_positions: pgPid ? {
      kib: trend((r) => r.job_positions_bytes / 1024), dead_rows: trend((r) => r.job_positions_dead),
      autovacuums_in_run: samples.at(-1).job_positions_autovacuums - samples[0].job_positions_autovacuums,
    } : null,
    cpu: {
      servers_percent_of_a_core: round((cpuMs - pgCpuMs) / elapsedMs * 100, 1), postgres_percent_of_a_core: pgPid ? round(pgCpuMs / elapsedMs * 100, 1) : null,
      load_generator_percent_of_a_core: round((self.user + self.system) / 1000 / elapsedMs * 100, 1),
      // The histogram counts the sampling interval (10 ms) in each reading: taken off.
      load_generator_event_loop_delay_p99_ms: round(Math.max(0, loopDelay.percentile(99) / 1e6 - 10), 1),
      load_generator_event_loop_delay_max_ms: round(Math.max(0, loopDelay.max / 1e6 - 10), 1),
    },
    samples,
  };
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
const cleanups = [];
let stopping = false;
async function cleanUp() {
  while (cleanups.length) { try { await cleanups.pop()(); } catch (e) { console.error(e.message); } }
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    log(`\n${sig}: stopping the servers...`);
    await cleanUp();
    process.exit(130);
  });
}

const HEAP_DIR = opts['heap-snapshots'] ? path.resolve(opts['heap-snapshots']) : null;
if (HEAP_DIR) mkdirSync(HEAP_DIR, { recursive: true });

/**
 * Each server writes a heap snapshot (SIGUSR2, --heapsnapshot-signal) into HEAP_DIR, renamed <label>-<k>.heapsnapshot;
 * waited for until its file stops growing (the server is paused while it writes). Nothing without --heap-snapshots.
 */
async function heapSnapshots(servers, label) {
  if (!HEAP_DIR) return;
  for (const [k, sv] of servers.entries()) {
    const before = new Set(readdirSync(HEAP_DIR));
    process.kill(sv.pid, 'SIGUSR2');
    let file = null;
    let size = -1;
    for (const deadline = Date.now() + 600_000; Date.now() < deadline;) {
      await sleep(2_000);
      file ??= readdirSync(HEAP_DIR).find((f) => !before.has(f) && f.endsWith('.heapsnapshot') && f.includes(`.${sv.pid}.`)) ?? null;
      if (!file) continue;
      const now = statSync(path.join(HEAP_DIR, file)).size;
      if (now === size && now > 0) break;
      size = now;
    }
    if (!file) throw new Error(`Server ${k + 1} (pid ${sv.pid}) wrote no heap snapshot into ${HEAP_DIR}`);
    const named = path.join(HEAP_DIR, `${label}-${k + 1}.heapsnapshot`);
    renameSync(path.join(HEAP_DIR, file), named);
    log(`${label}: heap snapshot of server ${k + 1}: ${named} (${round(size / 2 ** 20, 1)} MiB)`);
  }
}

// The memory allocator's settings a deployment gives the server (README "Deploying for customers", decision 64), unless
// the environment gives its own; `--malloc default` measures glibc's defaults instead.
if (!['deployed', 'default'].includes(opts.malloc)) { console.error('--malloc is deployed or default'); process.exit(2); }
const mallocEnv = opts.malloc === 'deployed'
  ? Object.fromEntries(Object.entries(DEPLOYED_MALLOC).map(([k, v]) => [k, process.env[k] ?? v])) : {};
const serverEnv = {
  ...mallocEnv,
  ...(HEAP_DIR ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${HEAP_DIR}`.trim() } : {}),
  RATE_LIMITS: [benchLimits(root), 'driverCodes=100000000', 'driverCodesPerMobile=100000000'].filter(Boolean).join(','),
  TRUST_PROXY: '1', PASSWORD_HASH_COST: '10', SERVER_SECRET: `bench-live-${runId}`,
  // Live streams a process takes per booking's link (5 by default, src/server/live/sse.ts): the run has FOLLOWERS of
  // them per booking, all of them on the one PGlite process.
  LIVE_STREAMS_PER_OWNER: String(Math.max(5, FOLLOWERS)),
};
const report = {
  date: new Date().toISOString(), machine: `${os.cpus().length} cores (${os.cpus()[0]?.model?.trim()}), ${round(os.totalmem() / 2 ** 30, 1)} GiB, node ${process.version}, ${os.platform()} ${os.release()}`,
  load_average_at_start: os.loadavg().map((n) => round(n)), head: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim(),
  uncommitted_changes: spawnSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).stdout.trim() !== '',
  settings: { minutes: MINUTES, drivers: DRIVERS, followers_per_booking: FOLLOWERS, status_changes_per_second: CHANGES, position_every_s: POSITION_EVERY_MS / 1000, sample_every_s: SAMPLE_SECONDS },
  runs: [],
};

try {
  for (const name of CONFIGS) {
    if (name === 'pglite') {
      const server = await startServer(root, serverEnv, 'The PGlite server');
      const stop = () => server.stop();
      cleanups.push(stop);
      server.port = Number(new URL(server.url).port);
      log(`PGlite: server on ${server.url} (pid ${server.pid}), data in ${server.dataDir}`);
      const pgliteDir = path.join(server.dataDir, 'pglite');
      report.runs.push(await runConfig('pglite', [server], { dbSize: async () => ({ db_bytes: dirBytes(pgliteDir), wal_bytes: dirBytes(path.join(pgliteDir, 'pg_wal')) }) }));
      cleanups.splice(cleanups.indexOf(stop), 1);
      await stop();
    } else {
      const postgres = await startThrowawayPostgres({ maxConnections: 100 });
      cleanups.push(postgres.stop);
      log(`PostgreSQL ${postgres.version} (${postgres.from}), pid ${postgres.pid}`);
      const adminClient = new pg.Client({ connectionString: postgres.url });
      await adminClient.connect();
      await adminClient.query('CREATE DATABASE live');
      await adminClient.end();
      const databaseUrl = postgres.url.replace(/\/postgres$/, '/live');
      const servers = [];
      const stopServers = async () => { for (const sv of servers) await sv.stop(); };
      cleanups.push(stopServers);
      // One at a time: the first creates the tables.
      for (let k = 0; k < 2; k++) {
        const sv = await startServer(root, { ...serverEnv, DATABASE_URL: databaseUrl }, `PostgreSQL server ${k + 1}`);
        sv.port = Number(new URL(sv.url).port);
        sv.databaseUrl = databaseUrl;
        servers.push(sv);
        log(`PostgreSQL: server ${k + 1} on ${sv.url} (pid ${sv.pid})`);
      }
      const db = new pg.Client({ connectionString: databaseUrl });
      db.on('error', (e) => log(`(the benchmark's own database connection: ${e.message})`));
      await db.connect();
      const dbSize = async () => {
        const { rows: [r] } = await db.query(`SELECT pg_database_size(current_database())::bigint AS db, pg_total_relation_size('job_positions')::bigint AS pos,
          s.n_dead_tup::bigint AS dead, s.autovacuum_count::bigint AS vacuums FROM pg_stat_user_tables s WHERE s.relname = 'job_positions'`);
        return { db_bytes: Number(r.db), job_positions_bytes: Number(r.pos), job_positions_dead: Number(r.dead), job_positions_autovacuums: Number(r.vacuums) };
      };
      try {
        report.runs.push(await runConfig('pg', servers, { dbSize, extraCpuRoots: [postgres.pid], pgPid: postgres.pid }));
      } finally {
        await db.end();
      }
      cleanups.splice(cleanups.indexOf(stopServers), 1);
      await stopServers();
      cleanups.splice(cleanups.indexOf(postgres.stop), 1);
      await postgres.stop();
    }
  }
} finally {
  await cleanUp();
}

report.load_average_at_end = os.loadavg().map((n) => round(n));

// ---------------------------------------------------------------------------------------------------------------
// The table.
const label = (r) => (r.config === 'pglite' ? 'PGlite, 1 process' : 'PostgreSQL, 2 processes');
const rows = [];
const row = (measure, f, target = '') => rows.push([measure, ...report.runs.map(f), target]);
const trendText = (t) => (t ? `${t.first_minute} → ${t.last_minute} (${t.slope_per_minute >= 0 ? '+' : ''}${t.slope_per_minute}/min)` : '');
const errorsText = (e) => (Object.keys(e).length ? Object.entries(e).map(([k, v]) => `${k}: ${v}`).join(', ') : 'none');
row('status change → watcher, ms: p50 / p95 / p99 / max', (r) => fmtDist(r.status_to_watcher_ms), 'p99 ≤ 2000');
row('  met', (r) => (r.status_to_watcher_ms.n && r.status_to_watcher_ms.p99 <= 2000 && r.status_deliveries.missed === 0 ? 'yes' : 'no'));
row('  on the drivers\' process / on the other process (p99)', (r) => (r.processes > 1 ? r.status_to_watcher_ms_by_process.map((d) => d.p99).join(' / ') : '(one process)'));
row('  deliveries measured / missed (of which as a reopened stream\'s first event)', (r) => `${r.status_deliveries.measured} / ${r.status_deliveries.missed} (${r.status_deliveries.via_reopened_stream})`, 'none missed');
row('status change → board, ms: p50 / p95 / p99 / max (missed)', (r) => `${fmtDist(r.status_to_board_ms)} (${r.board_missed})`);
row('position → watcher, ms: p50 / p95 / p99 / max', (r) => fmtDist(r.position_to_watcher_ms));
row('  on the drivers\' process / on the other process (p99)', (r) => (r.processes > 1 ? r.position_to_watcher_ms_by_process.map((d) => d.p99).join(' / ') : '(one process)'));
row('  deliveries measured / missed', (r) => `${r.position_deliveries.measured} / ${r.position_deliveries.missed}`, 'none missed');
row('status changes: done (a second); answer p50 / p99 ms', (r) => `${r.status_changes.ok} of ${r.status_changes.sent} (${r.status_changes.per_second}); ${r.status_changes.answer_ms.p50} / ${r.status_changes.answer_ms.p99}`);
row('positions: stored (a second); answer p50 / p99 ms; turns skipped', (r) => `${r.positions.ok} of ${r.positions.sent} (${r.positions.per_second}); ${r.positions.answer_ms.p50} / ${r.positions.answer_ms.p99}; ${r.positions.skipped_turns}`);
row('bookings made during the run', (r) => r.bookings_made);
row('non-200 answers and dropped board streams', (r) => errorsText(r.errors), 'none');
row('watcher streams: opened in the run / reopened after 5 min / dropped / refused / no first event', (r) => `${r.streams.opened_during_run} / ${r.streams.reopened_after_5_min} / ${r.streams.dropped} / ${errorsText(r.streams.refused)} / ${r.streams.no_first_event}`, '– / – / 0 / none / 0');
row('server RSS MiB, first minute → last minute (slope)', (r) => r.rss_mib.map(trendText).join('; '), 'flat');
row('PGlite: its WebAssembly memory within that RSS (estimate); PostgreSQL: its processes\' PSS, MiB', (r) => trendText(r.wasm_mib ?? r.postgres_pss_mib));
row('database MiB, first → last minute (slope)', (r) => trendText(r.db_mib), 'flat (bookings aside)');
row('PGlite: of which its write-ahead log (pg_wal), MiB', (r) => (r.wal_mib ? trendText(r.wal_mib) : '–'));
row('job_positions KiB; dead rows, first → last minute; autovacuums in the run', (r) => (r.job_positions
  ? `${trendText(r.job_positions.kib)}; ${trendText(r.job_positions.dead_rows)}; ${r.job_positions.autovacuums_in_run ?? '–'}` : '(PGlite: not read from outside)'));
row('CPU, % of one core: servers / PostgreSQL / load generator', (r) => `${r.cpu.servers_percent_of_a_core} / ${r.cpu.postgres_percent_of_a_core ?? '–'} / ${r.cpu.load_generator_percent_of_a_core}`);
row('load generator event-loop delay p99 / max ms', (r) => `${r.cpu.load_generator_event_loop_delay_p99_ms} / ${r.cpu.load_generator_event_loop_delay_max_ms}`);
const esc = (v) => String(v ?? '').replace(/\|/g, '\\|');
const md = [
  `| measure | ${report.runs.map(label).join(' | ')} | target |`,
  `|---|${report.runs.map(() => '---').join('|')}|---|`,
  ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
].join('\n');
const how = [
  `# Live tracking under load (\`npm run bench:live\`), ${report.date.slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `Machine: ${report.machine}; load average (1, 5, 15 min) at start ${report.load_average_at_start.join(', ')}, at end ${report.load_average_at_end.join(', ')}; other work on the machine shares its ${os.cpus().length} cores with the servers and the load generator. Tree: ${report.head}${report.uncommitted_changes ? ' + uncommitted changes' : ''}.`,
  `Settings: ${MINUTES} min measured per set-up, ${DRIVERS} drivers (a position every 10 s while On the way or Arrived), ${FOLLOWERS} followers a booking `
    + `(${DRIVERS * FOLLOWERS} streams), about ${CHANGES} driver status changes a second, memory and database sampled every ${SAMPLE_SECONDS} s. `
    + 'Servers as `npm start` (NODE_ENV=production, CARD_GATEWAY=test, SKIP_SPA_BUILD=1), allowances raised, TRUST_PROXY=1 (each driver and passenger its own address), '
    + `LIVE_STREAMS_PER_OWNER=${serverEnv.LIVE_STREAMS_PER_OWNER}${(serverEnv.NODE_OPTIONS ?? process.env.NODE_OPTIONS) ? `, NODE_OPTIONS=${serverEnv.NODE_OPTIONS ?? process.env.NODE_OPTIONS}` : ''}, `
    + `${Object.keys(DEPLOYED_MALLOC).map((k) => `${k}=${serverEnv[k] ?? process.env[k] ?? '(glibc\'s default)'}`).join(', ')}; `
    + 'PostgreSQL: a throwaway cluster (scripts/pg-throwaway.mjs: fsync off), two server processes, drivers and office on the first, each booking\'s followers split over both. '
    + 'Load generator: one Node process on the same machine. Latencies from sending the driver\'s request to the event read by the follower. '
    + 'First/last minute: the mean of the samples from 0 to 60 s and from the end minus 60 s to the end; slope: least squares, per minute. '
    + 'How it is measured in full: the top of scripts/bench-live.mjs.',
  '',
  md,
  '',
].join('\n');
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const stem = `live-${report.date.slice(0, 10)}${opts.only ? `-${opts.only}` : ''}`;
writeFileSync(path.join(root, 'bench/results', `${stem}.md`), how);
writeFileSync(path.join(root, 'bench/results', `${stem}.json`), `${JSON.stringify(report, null, 2)}\n`);
log(`\n${how}`);
log(`Written to bench/results/${stem}.md and .json`);
process.exit(0);
