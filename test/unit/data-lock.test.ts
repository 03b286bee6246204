// DATA_DIR/server.pid: a lock that dies with its process. A file left by a
// crashed server whose pid now belongs to some other process must not block
// the next start; a live owner must; two claims at once must not both win.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { claimDataDir, dataDirOwner, isZombie, processStartToken } from '../../src/server/dataLock';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'data-lock-'));
let n = 0;
const freshDir = () => path.join(tmp, `data-${++n}`);
const lockPath = (dir: string) => path.join(dir, 'server.pid');

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

/** Some other live process: not a booking server, just alive with a pid of its own. */
let bystander: ChildProcess;
beforeAll(async () => {
  bystander = spawn('sleep', ['300'], { stdio: 'ignore' });
  children.push(bystander);
  await once(bystander, 'spawn');
});

/** A pid no process has now. */
async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(c, 'exit');
  return c.pid!;
}

describe('a stale server.pid', () => {
  let releases: (() => void)[] = [];
  afterEach(() => { releases.forEach((r) => r()); releases = []; });
  const claim = (dir: string) => { const r = claimDataDir(dir); releases.push(r); return r; };

  it('does not block when its pid now belongs to an unrelated process (a file from before start tokens)', () => {
    const dir = freshDir();
    claim(dir)();
    writeFileSync(lockPath(dir), String(bystander.pid)); // what the server wrote before: the pid alone
    expect(dataDirOwner(dir)).toBeNull();
    expect(() => claim(dir)).not.toThrow();
    expect(readFileSync(lockPath(dir), 'utf8').split('\n')[0]).toBe(String(process.pid));
  });

  it('does not block when its pid is alive but started at another time', () => {
    const dir = freshDir();
    claim(dir)();
    writeFileSync(lockPath(dir), `${bystander.pid}\nproc:another-boot:12345\n`);
    expect(dataDirOwner(dir)).toBeNull();
    expect(() => claim(dir)).not.toThrow();
  });

  it('does not block when it names this very pid from an earlier run (pid 1 in a container)', () => {
    const dir = freshDir();
    claim(dir)();
    writeFileSync(lockPath(dir), `${process.pid}\nproc:earlier-run:1\n`);
    expect(() => claim(dir)).not.toThrow();
    writeFileSync(lockPath(dir), String(process.pid));
    expect(() => claim(dir)).not.toThrow();
  });

  it('does not block when its process is gone', async () => {
    const dir = freshDir();
    claim(dir)();
    writeFileSync(lockPath(dir), `${await deadPid()}\nproc:x:1\n`);
    expect(dataDirOwner(dir)).toBeNull();
    expect(() => claim(dir)).not.toThrow();
  });

  it.runIf(existsSync('/proc/self/stat'))('does not block when its process is a zombie no one has reaped (issue 24)', async () => {
    // sh starts a child that ends a moment later, once sh has become sleep, which never reaps it: a zombie, as a server killed
    // with its whole process group is until something reaps it (in a container without init, never).
    const parent = spawn('sh', ['-c', '(sleep 0.3) & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(parent);
    const [line] = await once(parent.stdout!, 'data');
    const zombie = Number(String(line).trim());
    await expect.poll(() => isZombie(zombie), { timeout: 10_000 }).toBe(true);
    expect(() => process.kill(zombie, 0)).not.toThrow(); // it still takes signals: what the lock used to ask
    const dir = freshDir();
    claim(dir)();
    writeFileSync(lockPath(dir), `${zombie}\n${processStartToken(zombie)}\n`);
    expect(dataDirOwner(dir)).toBeNull();
    expect(() => claim(dir)).not.toThrow();
    expect(readFileSync(lockPath(dir), 'utf8').split('\n')[0]).toBe(String(process.pid));
    expect(isZombie(bystander.pid!)).toBe(false);
    expect(isZombie(process.pid)).toBe(false);
    parent.kill('SIGKILL');
  });

  it('blocks while its process runs: same pid, same start', () => {
    const dir = freshDir();
    claim(dir)();
    writeFileSync(lockPath(dir), `${bystander.pid}\n${processStartToken(bystander.pid!)}\n`);
    expect(dataDirOwner(dir)).toBe(bystander.pid);
    expect(() => claimDataDir(dir)).toThrow(`in use by process ${bystander.pid}`);
    expect(readFileSync(lockPath(dir), 'utf8').split('\n')[0]).toBe(String(bystander.pid));
  });

  it('is released by its owner only, and the folder can be claimed again', () => {
    const dir = freshDir();
    const release = claimDataDir(dir);
    expect(existsSync(lockPath(dir))).toBe(true);
    expect(dataDirOwner(dir)).toBeNull(); // ourselves
    release();
    expect(existsSync(lockPath(dir))).toBe(false);
    const again = claimDataDir(dir);
    writeFileSync(lockPath(dir), `${bystander.pid}\n${processStartToken(bystander.pid!)}\n`);
    again(); // not ours any more: left alone
    expect(existsSync(lockPath(dir))).toBe(true);
    rmSync(lockPath(dir));
  });

  it('reads a start token for a live process and none for a gone one', async () => {
    expect(processStartToken(process.pid)).toMatch(/\S/);
    expect(processStartToken(process.pid)).toBe(processStartToken(process.pid));
    expect(processStartToken(bystander.pid!)).not.toBe(processStartToken(process.pid));
    expect(processStartToken(await deadPid())).toBeNull();
  });
});

// The contenders run the module compiled to JavaScript once, so each starts as plain node (tsx would compile it
// again in every one of them).
const compiledLock = path.join(tmp, 'dataLock.mjs');
writeFileSync(compiledLock, ts.transpileModule(readFileSync(path.join(root, 'src/server/dataLock.ts'), 'utf8'), {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
}).outputText);

// Real processes claiming at once: each prints "ready", waits for "go <time>",
// spins until that moment, claims, prints the outcome, and holds on until killed.
const CHILD = `
import { claimDataDir } from ${JSON.stringify(compiledLock)};
process.stdout.write('ready\\n');
process.stdin.once('data', (d) => {
  const at = Number(String(d).split(' ')[1]);
  while (Date.now() < at) {}
  try { claimDataDir(process.argv[2]); process.stdout.write('won\\n'); }
  catch (err) { process.stdout.write('lost ' + err.message + '\\n'); }
});
setInterval(() => {}, 1000);
`;

async function race(dir: string, contenders: number, code = CHILD, args: string[] = []): Promise<string[]> {
  const script = path.join(tmp, `child-${++n}.mjs`);
  writeFileSync(script, code);
  const procs = Array.from({ length: contenders }, () => {
    const c = spawn(process.execPath, [script, dir, ...args], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(c);
    let out = '';
    const lines: string[] = [];
    const waiters: (() => void)[] = [];
    c.stdout!.on('data', (d) => {
      out += d;
      let i;
      while ((i = out.indexOf('\n')) >= 0) { lines.push(out.slice(0, i)); out = out.slice(i + 1); waiters.splice(0).forEach((w) => w()); }
    });
    c.on('exit', () => waiters.splice(0).forEach((w) => w()));
    const line = async (k: number) => {
      while (lines.length <= k && c.exitCode === null) await new Promise<void>((r) => waiters.push(r));
      return lines[k] ?? `exited ${c.exitCode}`;
    };
    return { c, line };
  });
  for (const p of procs) expect(await p.line(0)).toBe('ready');
  const at = Date.now() + 300;
  for (const p of procs) p.c.stdin!.write(`go ${at}\n`);
  const outcomes = await Promise.all(procs.map((p) => p.line(1)));
  for (const p of procs) p.c.kill('SIGKILL');
  await Promise.all(procs.map((p) => (p.c.exitCode === null && p.c.signalCode === null ? once(p.c, 'exit') : null)));
  return outcomes;
}

// Each contender claims and releases over and over: whoever holds the folder
// checks that the lock still names it for a moment before releasing. With a
// check-then-write lock, two contenders win at once and one finds the other's
// pid in the file.
const HAMMER = `
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { claimDataDir } from ${JSON.stringify(compiledLock)};
const [dir, rounds, ending] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
process.stdout.write('ready\\n');
process.stdin.once('data', (d) => {
  const at = Number(String(d).split(' ')[1]);
  while (Date.now() < at) {}
  let wins = 0, overlaps = 0;
  for (let i = 0; i < rounds; i++) {
    let release;
    try { release = claimDataDir(dir); } catch { continue; }
    wins++;
    const until = performance.now() + 0.2;
    do {
      let holder = 'none';
      try { holder = readFileSync(dir + '/server.pid', 'utf8').split('\\n')[0]; } catch {}
      if (holder !== String(process.pid)) { overlaps++; break; } // replaced or removed by another "holder"
    } while (performance.now() < until);
    if (ending === 'release') { release(); continue; }
    // As if this run had crashed and its pid been reused: a stale lock the next claim must take over.
    writeFileSync(dir + '/abandoned-' + process.pid, process.pid + '\\nproc:earlier-run:' + i + '\\n');
    renameSync(dir + '/abandoned-' + process.pid, dir + '/server.pid');
  }
  process.stdout.write(JSON.stringify({ wins, overlaps }) + '\\n');
});
setInterval(() => {}, 1000);
`;

describe('claims racing', () => {
  it('let exactly one process win an empty folder, and one win a stale lock', async () => {
    for (let round = 0; round < 2; round++) {
      const empty = freshDir();
      const first = await race(empty, 4);
      expect(first.filter((o) => o === 'won'), first.join(' | ')).toHaveLength(1);
      expect(first.filter((o) => o.startsWith('lost') && o.includes('in use by process'))).toHaveLength(3);

      const stale = freshDir();
      claimDataDir(stale)();
      writeFileSync(lockPath(stale), `${bystander.pid}\nproc:another-boot:12345\n`);
      const second = await race(stale, 4);
      expect(second.filter((o) => o === 'won'), second.join(' | ')).toHaveLength(1);
      // No takeover markers or temporary files are left behind.
      expect(readdirSync(stale).filter((f) => f !== 'server.pid')).toEqual([]);
    }
  }, 120_000);

  it.each(['release', 'abandon'])('never let two processes hold the folder at once, over many claims (holders %s it)', async (ending) => {
    const dir = freshDir();
    const results = (await race(dir, 4, HAMMER, ['300', ending])).map((line) => JSON.parse(line) as { wins: number; overlaps: number });
    expect(results.reduce((sum, r) => sum + r.overlaps, 0), JSON.stringify(results)).toBe(0);
    expect(results.reduce((sum, r) => sum + r.wins, 0)).toBeGreaterThan(0);
    expect(readdirSync(dir).filter((f) => f.includes('takeover'))).toEqual([]);
  }, 120_000);
});
