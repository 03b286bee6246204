// `npm run bench:statement -- [<tree folder>]`: the booking's one statement alone, as PostgreSQL runs it, without the
// Node server around it (README "Performance"; decision 63). For the tree at the folder (this one by default; another
// commit's, e.g. the worktree `npm run bench:ab -- <commit>` leaves in .bench-ab/<commit>):
//   1. a throwaway PostgreSQL logging every statement with its parameters; the tree's server started on it (its
//      migrations) and one pay-in-car guest booking made, as bench:ab makes them; the booking's statement and its
//      parameters read back from the log;
//   2. that statement run again STATEMENT_RUNS (4000) times a round, four rounds, as a prepared statement, on
//      STATEMENT_CONNECTIONS (1) connections at once, each run with its own Idempotency-Key, booking number and manage
//      key; with STATEMENT_CUSTOMERS=many each run also has its own client address and e-mail (no two runs share an
//      allowance row);
//   3. the CPU of those connections' backends a statement (/proc), and the wall time, the median of rounds 2 to 4; with
//      more than one connection, what the backends waited on (pg_stat_activity sampled every 5 ms, in round 3).
// STATEMENT_SQL: SQL run on the database before the runs (an experiment: `DROP INDEX ...`).
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startThrowawayPostgres } from './pg-throwaway.mjs';
import { bookingLoad, bookingRequest, load, log, startServer } from './bench-lib.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const tree = path.resolve(process.argv[2] ?? root);
const runs = Number(process.env.STATEMENT_RUNS) || 4000;
const connections = Number(process.env.STATEMENT_CONNECTIONS) || 1;
const many = process.env.STATEMENT_CUSTOMERS === 'many';
if (!['one', 'many', undefined].includes(process.env.STATEMENT_CUSTOMERS)) throw new Error('STATEMENT_CUSTOMERS is one or many');

/** The rows of PostgreSQL's CSV log (quoted fields may hold commas, quotes and new lines). */
function csvRows(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') { field += '"'; i++; } else quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; } else if (ch === '\n') { row.push(field); rows.push(row); row = []; field = ''; } else field += ch;
  }
  return rows;
}

/** The booking's statement and its parameters, from a log of one booking (CSV: message is field 14, detail 15). */
function bookingStatement(logDir) {
  const text = readdirSync(logDir).filter((f) => f.endsWith('.csv')).map((f) => readFileSync(path.join(logDir, f), 'utf8')).join('');
  const entry = csvRows(text).filter((r) => /execute [^:]*:/.test(r[13] ?? '') && /INSERT INTO bookings/.test(r[13])).at(-1);
  if (!entry) throw new Error('No booking statement in the log');
  const sql = entry[13].replace(/^duration: [\d.]+ ms\s+execute [^:]*:\s*/s, '');
  const params = [];
  for (const m of (entry[14] ?? '').matchAll(/\$(\d+) = (NULL|'((?:[^']|'')*)')/g)) params[Number(m[1]) - 1] = m[2] === 'NULL' ? null : m[3].replace(/''/g, "'");
  return { sql, params };
}

const cpuTicks = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return Number(x[11]) + Number(x[12]);
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const logDir = mkdtempSync(path.join(os.tmpdir(), 'pg-log-'));
chmodSync(logDir, 0o777); // the server may run as another user
const postgres = await startThrowawayPostgres({
  settings: { logging_collector: 'on', log_destination: 'csvlog', log_directory: logDir, log_min_duration_statement: 0, log_parameter_max_length: -1 },
});
const clients = [];
try {
  const server = await startServer(tree, { DATABASE_URL: postgres.url, SERVER_SECRET: 'bench-statement' }, `The server of ${tree}`);
  try {
    const body = (await bookingRequest(server.url)).body;
    await load(1, bookingLoad(server.url, body, `statement-${Date.now()}`, 'capture'), 1);
  } finally {
    await server.stop();
  }
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  // What was logged until now is enough: the runs' sessions log nothing (a setting given on the server's command line
  // outweighs ALTER SYSTEM, not a session's own).
  await admin.query('SET log_min_duration_statement = -1');
  await new Promise((r) => setTimeout(r, 500));
  const { sql, params } = bookingStatement(logDir);
  if (process.env.STATEMENT_SQL) await admin.query(process.env.STATEMENT_SQL);
  log(`The booking's statement of ${path.relative(root, tree) || 'this tree'}: ${params.length} parameters; ${runs} runs a round on ${connections} connection(s), ${many ? 'each run its own customer' : 'one customer'}`);
  // The parameters that must differ from run to run: the key (twice: the claim and the booking), the booking number,
  // the manage key's hash; with many customers the client address and e-mail wherever they appear.
  const key = params.find((p) => typeof p === 'string' && p.startsWith('bench-'));
  const number = params.findIndex((p) => typeof p === 'string' && /^BK-[A-Z0-9]{8}$/.test(p));
  const hash = params.findIndex((p) => typeof p === 'string' && /^[0-9a-f]{64}$/.test(p));
  const email = params.find((p) => typeof p === 'string' && /^[^@\s"]+@[^@\s"]+$/.test(p));
  let n = 0;
  const paramsOf = (k) => params.map((p, j) => {
    if (p === key) return `statement-${k}`;
    if (j === number) return `BK-${String(k).padStart(8, '0')}`;
    if (j === hash) return k.toString(16).padStart(64, '0');
    if (!many || typeof p !== 'string') return p;
    return p.split(email).join(`customer${k}@example.com`).split('127.0.0.1').join(`10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`);
  });
  for (let i = 0; i < connections; i++) {
    const c = new pg.Client({ connectionString: postgres.url });
    await c.connect();
    await c.query('SET log_min_duration_statement = -1');
    c.pid = (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    clients.push(c);
  }
  const rounds = [];
  for (let round = 1; round <= 4; round++) {
    const waits = new Map();
    let sampling = connections > 1 && round === 3;
    const sampler = sampling && (async () => {
      while (sampling) {
        const { rows } = await admin.query(
          "SELECT coalesce(wait_event_type || ':' || wait_event, 'on the CPU') AS w FROM pg_stat_activity WHERE pid = ANY($1) AND state = 'active'", [clients.map((c) => c.pid)]);
        for (const r of rows) waits.set(r.w, (waits.get(r.w) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const before = clients.reduce((t, c) => t + cpuTicks(c.pid), 0);
    const began = performance.now();
    await Promise.all(clients.map(async (c) => {
      for (let i = 0; i < runs / connections; i++) await c.query({ name: 'booking', text: sql, values: paramsOf(++n) });
    }));
    const cpu = ((clients.reduce((t, c) => t + cpuTicks(c.pid), 0) - before) * (1000 / 100)) / runs;
    const wall = (performance.now() - began) / runs;
    sampling = false;
    await sampler;
    rounds.push({ cpu, wall });
    log(`  round ${round}: ${cpu.toFixed(3)} ms of the backends' CPU a statement, ${wall.toFixed(3)} ms of wall time`);
    if (waits.size) log(`  active backends sampled in round 3: ${[...waits].sort((a, b) => b[1] - a[1]).map(([w, k]) => `${w} ${k}`).join(', ')}`);
  }
  const kept = rounds.slice(1);
  log(`Median of rounds 2 to 4: ${median(kept.map((r) => r.cpu)).toFixed(3)} ms of CPU, ${median(kept.map((r) => r.wall)).toFixed(3)} ms of wall time a statement`);
  await admin.end();
} finally {
  for (const c of clients) await c.end().catch(() => {});
  await postgres.stop();
  rmSync(logDir, { recursive: true, force: true });
}
