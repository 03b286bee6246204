// PGlite is a single-process database: the server (or an admin command) marks
// its data folder as in use with DATA_DIR/server.pid, so a second process does
// not open it at the same time.
//
// The file names its owner by pid and by the moment that process started (its
// start token: /proc/<pid>/stat field 22 and the boot id on Linux, `ps -o
// lstart` elsewhere). A pid is reused after a crash or a reboot; pid and start
// time together are not, so a file left behind whose pid now belongs to some
// other process is seen as stale and taken over instead of blocking the start.
//
// Claiming is atomic. A new lock is a complete file hard-linked into place,
// which fails when a lock exists, so two claims cannot both create it. A stale
// lock is replaced (rename over it) only by the one process that first creates
// the takeover marker named after that exact stale content; everyone else looks
// again and finds the new owner alive.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const LOCK_NAME = 'server.pid';
const lockFile = (dataDir: string) => path.join(dataDir, LOCK_NAME);

/** A takeover marker older than this, whose maker is gone, was left by a crash in mid-takeover. */
const ABANDONED_MARKER_MS = 10_000;

interface Lock {
  pid: number;
  /** The owner's start token; null when its system could not tell; undefined in a file from before tokens (just a pid). */
  start: string | null | undefined;
  text: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (a server killed with its parent, never reaped: a container has no init to do it) still takes signals
  // but holds nothing: no open files, no database.
  return !isZombie(pid);
}

const procWorks = () => existsSync('/proc/self/stat');

/** True when /proc says the process has ended and waits only to be reaped (state Z, or X on its way out). */
export function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (command) state ...": the command may hold spaces and parentheses, so the state follows the last ")".
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false; // no /proc (macOS), or gone meanwhile: kill(0) already answered
  }
}

/** What tells one run of a process from a later process given the same pid; null when it cannot be read. */
export function processStartToken(pid: number): string | null {
  if (procWorks()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (command) state ppid ...": the command may hold spaces and parentheses, so
      // count from the last ")". The field after it is field 3; field 22 is the start
      // time in clock ticks since boot, which the boot id makes unique across reboots.
      const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
      if (!ticks) return null;
      let boot = '';
      try { boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(); } catch { /* older kernels */ }
      return `proc:${boot}:${ticks}`;
    } catch {
      return null; // /proc works, so the process is gone
    }
  }
  try {
    const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000,
    }).trim();
    return started ? `ps:${started}` : null;
  } catch {
    return null; // no ps (Windows), or no such process
  }
}

function lockText(pid: number, start: string | null): string {
  return `${pid}\n${start ?? ''}\n`;
}

let ownText: string | undefined;
/** This process's lock content (its start token does not change). */
const myText = () => (ownText ??= lockText(process.pid, processStartToken(process.pid)));

function parse(text: string): Lock | null {
  // "pid\nstart token\n"; a file from before start tokens holds the pid alone, with no newline.
  const [first, second] = text.split('\n');
  if (!/^\s*\d+\s*$/.test(first)) return null;
  const pid = Number(first);
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  return { pid, start: second === undefined ? undefined : second.trim() || null, text };
}

function readLock(file: string): Lock | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
  return parse(text) ?? 'unreadable';
}

/** A file holding only a pid (written before start tokens): its owner was a node process. */
function legacyOwnerPlausible(pid: number): boolean {
  try {
    const command = procWorks()
      ? readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      : execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 });
    return command.includes('node');
  } catch {
    return true; // no way to tell: assume it is the owner
  }
}

/** True when the lock's owner is still running: same pid, same start. */
function ownerRunning(lock: Lock): boolean {
  if (lock.pid === process.pid) return lock.text === myText(); // our pid, from an earlier run unless it is our own lock
  if (!alive(lock.pid)) return false;
  if (lock.start === undefined) return legacyOwnerPlausible(lock.pid);
  const now = processStartToken(lock.pid);
  if (lock.start === null || now === null) return true; // cannot tell: assume it is the owner
  return now === lock.start;
}


/** The pid of another live process using the folder, if any. */
export function dataDirOwner(dataDir: string): number | null {
  const lock = readLock(lockFile(dataDir));
  if (typeof lock === 'string' || lock.pid === process.pid) return null;
  return ownerRunning(lock) ? lock.pid : null;
}

function inUse(dataDir: string, pid: number): Error {
  return new Error(`${dataDir} is in use by process ${pid}. Stop it first, or set DATA_DIR to another folder.`);
}

/** Puts our complete lock file in place unless one exists. */
function createExclusive(temp: string, file: string, text: string): boolean {
  try {
    linkSync(temp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw err;
  }
  // A file system without hard links: exclusive create (the content follows at once).
  try {
    writeFileSync(file, text, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Replaces the stale lock `stale` with ours, if we are the process that takes it over. */
function takeOver(dataDir: string, file: string, stale: Lock, temp: string, mine: string): boolean {
  const marker = path.join(dataDir, `.${LOCK_NAME}.takeover-${createHash('sha256').update(stale.text).digest('hex').slice(0, 16)}`);
  try {
    writeFileSync(marker, mine, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    clearAbandonedMarker(marker);
    return false; // another process is taking it over: look again
  }
  try {
    // Holding the marker, only we may replace this content; a stale owner never releases it.
    const current = readLock(file);
    if (typeof current === 'string' || current.text !== stale.text) return false;
    renameSync(temp, file);
    return true;
  } finally {
    rmSync(marker, { force: true });
  }
}

function clearAbandonedMarker(marker: string): void {
  const text = readText(marker);
  if (text === null || ageMs(marker) < ABANDONED_MARKER_MS) return;
  const maker = parse(text);
  if (!maker || !ownerRunning(maker)) rmSync(marker, { force: true });
}

function readText(file: string): string | null {
  try { return readFileSync(file, 'utf8'); } catch { return null; }
}

function ageMs(file: string): number {
  try { return Date.now() - statSync(file).mtimeMs; } catch { return 0; }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Marks the folder as ours; throws when another live process has it. Returns the release function. */
export function claimDataDir(dataDir: string): () => void {
  // Private (runtime.ts tightens a folder made before that rule); this module stands alone for the race tests.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = lockFile(dataDir);
  const mine = myText();
  const temp = path.join(dataDir, `.${LOCK_NAME}.${process.pid}.${randomBytes(6).toString('hex')}`);
  writeFileSync(temp, mine);
  const release = () => {
    try {
      if (readFileSync(file, 'utf8') === mine) rmSync(file, { force: true });
    } catch { /* already gone */ }
  };
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      if (createExclusive(temp, file, mine)) return release;
      const lock = readLock(file);
      if (lock === 'missing') continue; // released meanwhile: try again
      if (lock === 'unreadable') {
        // Not a lock we understand: stale, unless it is new enough to be one still
        // being written (on a file system without hard links).
        const text = readText(file);
        if (text !== null && ageMs(file) > 2000 && takeOver(dataDir, file, { pid: 0, start: null, text }, temp, mine)) return release;
        pause(20);
        continue;
      }
      if (lock.text === mine) return release; // ours already
      if (ownerRunning(lock)) throw inUse(dataDir, lock.pid);
      if (takeOver(dataDir, file, lock, temp, mine)) return release;
      pause(5); // someone else is taking it over
    }
    throw new Error(`Could not mark ${dataDir} as in use: ${file} keeps changing. Is another server starting?`);
  } finally {
    rmSync(temp, { force: true });
  }
}
