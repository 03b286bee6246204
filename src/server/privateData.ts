// The data folder is the server's alone (issue 24): it holds the embedded database, the server secret and the
// outbox, whose messages carry reset codes in clear. Folders are 0700 and files 0600; a folder made before this
// rule, or a copy of the prepared demo database, is tightened once.
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const PRIVATE_FILE = 0o600;
export const PRIVATE_FOLDER = 0o700;
const OTHERS = 0o077;

/** From now on, what this process creates (the database's own files among them) is its user's alone. */
export function keepNewFilesPrivate(): void {
  process.umask(OTHERS);
}

/** Takes group and others' rights away from a folder and everything in it (symbolic links are left as they are). */
export function makeTreePrivate(dir: string): void {
  const visit = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.mode & OTHERS) chmodSync(p, st.mode & ~OTHERS & 0o7777);
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  visit(dir);
}

/** Makes the data folder if it is missing, and private; one stat when it already is. */
export function makeDataDirPrivate(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER });
  if (statSync(dataDir).mode & OTHERS) makeTreePrivate(dataDir);
}
