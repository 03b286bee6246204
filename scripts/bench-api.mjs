// `npm run bench:api`: load on the price and booking calls with autocannon,
// 50 connections each, against a server started as `npm start` starts it (or
// BENCH_URL). Prints requests per second and p50/p99 latency and writes
// bench/results/api.json. A benchmark, not a test: nothing fails on a number.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

const root = new URL('..', import.meta.url).pathname;
const seconds = Number(process.env.BENCH_SECONDS) || 10;
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
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => { child.kill('SIGTERM'); rmSync(dataDir, { recursive: true, force: true }); } };
}

const year = new Date().getUTCFullYear() + 1;
const form = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: `${year}-06-01`, pickup_hour: '3pm', pickup_min: '05', passengers: 2, luggages: 1, meet_and_greet: 'yes',
};

function run(title, opts) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ connections: 50, duration: seconds, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
    process.stdout.write(`${title}: ${seconds} s at 50 connections...\n`);
  });
}

const server = process.env.BENCH_URL ? { url: process.env.BENCH_URL, stop() {} } : await startServer();
try {
  const price = await fetch(`${server.url}/api/v1/calculate-distance-price`, { method: 'POST', headers, body: JSON.stringify(form) }).then((r) => r.json());
  const vehicle = price.price_details[0];
  const results = {};
  results['calculate-distance-price'] = await run('POST /calculate-distance-price', {
    url: `${server.url}/api/v1/calculate-distance-price`, method: 'POST', headers, body: JSON.stringify(form),
  });
  const booking = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, payment_method: 'car',
    selected_passenger: 'guest_login',
    registrationData: { firstName: 'Load', surname: 'Test', number: '+44 770 090 012', email: 'load.test@example.com' },
  };
  results.booking = await run('POST /booking', {
    url: `${server.url}/api/v1/booking`, method: 'POST', headers, body: JSON.stringify(booking),
    setupClient: (client) => client.on('response', () => client.setHeaders({ ...headers, 'idempotency-key': randomUUID() })),
  });
  const summary = Object.fromEntries(Object.entries(results).map(([name, r]) => [name, {
    requests_per_second: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99,
    non_2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts,
  }]));
  const report = { date: new Date().toISOString(), machine: `${os.cpus().length} cores, node ${process.version}`, connections: 50, seconds, database: process.env.DATABASE_URL ? 'postgresql' : 'pglite', results: summary };
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/api.json'), JSON.stringify(report, null, 2) + '\n');
  console.table(summary);
  console.log('Written to bench/results/api.json');
} finally {
  server.stop();
}
