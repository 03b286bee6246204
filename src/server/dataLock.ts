// PGlite is a single-process database: the server marks its data folder as in
// use, so `npm run admin` (or a second server) does not open it at the same time.
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const lockFile = (dataDir: string) => path.join(dataDir, 'server.pid');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live process using the folder, if any. */
export function dataDirOwner(dataDir: string): number | null {
  const file = lockFile(dataDir);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8'));
  return Number.isInteger(pid) && pid !== process.pid && alive(pid) ? pid : null;
}

export function claimDataDir(dataDir: string): () => void {
  const owner = dataDirOwner(dataDir);
  if (owner) {
    throw new Error(`${dataDir} is in use by process ${owner}. Stop it first, or set DATA_DIR to another folder.`);
  }
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(lockFile(dataDir), String(process.pid));
  return () => rmSync(lockFile(dataDir), { force: true });
}
