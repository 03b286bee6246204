// `npm run bench:api`: load on the price and booking calls with autocannon, at
// 20 and then 50 concurrent connections (BENCH_CONNECTIONS, e.g. "20,50"),
// BENCH_SECONDS each (default 10), against a server started as `npm start`
// starts it (or BENCH_URL). Prints requests per second and p50/p90/p99/max
// latency and writes bench/results/api.json. A benchmark, not a test: nothing
// fails on a number.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

const root = new URL('..', import.meta.url).pathname;
const seconds = Number(process.env.BENCH_SECONDS) || 10;
const levels = (process.env.BENCH_CONNECTIONS || '20,50').split(',').map(Number).filter((n) => n > 0);
const headers = {
  'content-type': 'application/json',
  'api-public-key': process.env.API_PUBLIC_KEY || 'local-public-key',
  'api-secret-key': process.env.API_SECRET_KEY || 'local-secret-key',
};

async function startServer() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root, env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => { if (String(d).includes('Booking site ready')) resolve(); });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited; // the server closes the database before its folder goes
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url: `http://127.0.0.1:${port}`, stop };
}

const year = new Date().getUTCFullYear() + 1;
const form = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: `${year}-06-01`, pickup_hour: '3pm', pickup_min: '05', passengers: 2, luggages: 1, meet_and_greet: 'yes',
};

function run(title, connections, opts) {
  return new Promise((resolve, reject) => {
    // A long timeout: a slow answer is measured, not counted as a timeout (autocannon's default is 10 s).
    const instance = autocannon({ connections, duration: seconds, timeout: 60, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
    process.stdout.write(`${title}: ${seconds} s at ${connections} connections...\n`);
  });
}

const summarise = (r) => ({
  requests_per_second: Math.round(r.requests.average), p50_ms: r.latency.p50, p90_ms: r.latency.p90, p99_ms: r.latency.p99,
  max_ms: r.latency.max, p99_over_p50: r.latency.p50 ? Math.round((r.latency.p99 / r.latency.p50) * 10) / 10 : null,
  non_2xx: r.non2xx, status_codes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
  errors: r.errors, timeouts: r.timeouts,
});

const loadBefore = os.loadavg().map((n) => Math.round(n * 100) / 100);
const server = process.env.BENCH_URL ? { url: process.env.BENCH_URL, async stop() {} } : await startServer();
try {
  const price = await fetch(`${server.url}/api/v1/calculate-distance-price`, { method: 'POST', headers, body: JSON.stringify(form) }).then((r) => r.json());
  const vehicle = price.price_details[0];
  const booking = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, payment_method: 'car',
    selected_passenger: 'guest_login',
    registrationData: { firstName: 'Load', surname: 'Test', number: '+44 770 090 012', email: 'load.test@example.com' },
  };
  const calls = {
    'calculate-distance-price': (connections) => run('POST /calculate-distance-price', connections, {
      url: `${server.url}/api/v1/calculate-distance-price`, method: 'POST', headers, body: JSON.stringify(form),
    }),
    booking: (connections) => run('POST /booking', connections, {
      url: `${server.url}/api/v1/booking`, method: 'POST', headers, body: JSON.stringify(booking),
      // Every booking is a new one: a fresh Idempotency-Key per request.
      setupClient: (client) => {
        client.setHeaders({ ...headers, 'idempotency-key': randomUUID() });
        client.on('response', () => client.setHeaders({ ...headers, 'idempotency-key': randomUUID() }));
      },
    }),
  };
  const results = {};
  const rows = [];
  for (const [name, call] of Object.entries(calls)) {
    results[name] = {};
    for (const connections of levels) {
      const s = summarise(await call(connections));
      results[name][connections] = s;
      rows.push({ call: name, connections, rps: s.requests_per_second, p50_ms: s.p50_ms, p90_ms: s.p90_ms, p99_ms: s.p99_ms,
        max_ms: s.max_ms, 'p99/p50': s.p99_over_p50, non_2xx: s.non_2xx, errors: s.errors, timeouts: s.timeouts });
    }
  }
  const report = {
    date: new Date().toISOString(), machine: `${os.cpus().length} cores, node ${process.version}`,
    load_average_at_start: loadBefore, connections: levels, seconds,
    database: process.env.DATABASE_URL ? 'postgresql' : 'pglite', results,
  };
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/api.json'), JSON.stringify(report, null, 2) + '\n');
  console.table(rows);
  console.log(`Load average at start: ${loadBefore.join(', ')}. Written to bench/results/api.json`);
} finally {
  await server.stop();
}
