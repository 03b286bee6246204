// Part of `npm run bench:api`: how long `npm start` takes to answer its first 200 on /, with a new data folder
// (the prepared demo database is copied) and with the folder the last start left, against the floor of a Hono
// hello-world started the same way; and the server's memory once idle. Each is the median of BENCH_START_RUNS
// (default 5) starts. Writes bench/results/start.json and prints a table. Targets (issue 12): under 1 s with an
// existing data folder, under 2.5 s with a new one.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const runs = Number(process.env.BENCH_START_RUNS) || 5;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (n, places = 2) => Math.round(n * 10 ** places) / 10 ** places;

/** Starts `command` in its own process group; resolves with the time to the first 200 on / and a stop function. */
async function timeToFirst200(command, args, env) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const began = performance.now();
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited:\n${output}`);
    if (performance.now() - began > 60_000) throw new Error(`no answer in 60 s:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).status === 200) break;
    } catch { /* not listening yet */ }
    await sleep(5);
  }
  const seconds = (performance.now() - began) / 1000;
  return {
    seconds,
    output: () => output,
    /** The server's resident memory in MiB, read from /proc (the node process under npm). */
    rssMiB() {
      const pids = [child.pid, ...descendants(child.pid)];
      const sizes = pids.map((pid) => { try { return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024; } catch { return 0; } });
      return Math.max(...sizes);
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
      await sleep(100); // the server closes its database after npm has gone
    },
  };
}

function descendants(pid) {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return children.flatMap((c) => [c, ...descendants(c)]);
  } catch {
    return [];
  }
}

// The floor, written inside the project so it finds hono where the server does.
const helloFile = path.join(root, 'build', `bench-hello-${process.pid}.mjs`);
mkdirSync(path.dirname(helloFile), { recursive: true });
writeFileSync(helloFile, `import { serve } from '@hono/node-server';\nimport { Hono } from 'hono';\n` +
  `const app = new Hono(); app.get('/', (c) => c.text('hello'));\nserve({ fetch: app.fetch, port: Number(process.env.PORT) });\n`);

const samples = { fresh: [], existing: [], floor: [], rss_idle_mib: [] };
const env = { NODE_ENV: 'production', CARD_GATEWAY: 'test' };
try {
  // Once first, untimed: compiles the server and builds the website if a source changed since.
  {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
    const s = await timeToFirst200(npm, ['start'], { ...env, DATA_DIR: dir });
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  for (let i = 0; i < runs; i++) {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-start-')), 'data');
    const fresh = await timeToFirst200(npm, ['start'], { ...env, DATA_DIR: dir });
    samples.fresh.push(fresh.seconds);
    await fresh.stop();
    const existing = await timeToFirst200(npm, ['start'], { ...env, DATA_DIR: dir });
    samples.existing.push(existing.seconds);
    await sleep(2000); // idle: the start's own work has settled
    samples.rss_idle_mib.push(existing.rssMiB());
    await existing.stop();
    rmSync(path.dirname(dir), { recursive: true, force: true });
    const floor = await timeToFirst200(process.execPath, [helloFile], env);
    samples.floor.push(floor.seconds);
    await floor.stop();
  }
} finally {
  rmSync(helloFile, { force: true });
}

const floor = median(samples.floor);
const measure = (name, key, target) => {
  const now = median(samples[key]);
  return { measure: name, now_s: round(now), floor_s: round(floor), ratio: round(now / floor, 1), target_s: target, met: now < target };
};
const rows = [
  measure('npm start to first 200, new data folder', 'fresh', 2.5),
  measure('npm start to first 200, existing data folder', 'existing', 1),
];
const report = {
  date: new Date().toISOString(), machine: `${os.cpus().length} cores, node ${process.version}`,
  load_average_at_start: os.loadavg().map((n) => round(n)), runs,
  floor: 'a Hono hello-world on @hono/node-server, started with node directly (no npm)',
  results: rows, server_idle_rss_mib: Math.round(median(samples.rss_idle_mib)),
  samples: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map((x) => round(x))])),
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/start.json'), JSON.stringify(report, null, 2) + '\n');
console.table(rows);
console.log(`Server memory once idle (PGlite): ${report.server_idle_rss_mib} MiB. Median of ${runs} starts each; written to bench/results/start.json`);
