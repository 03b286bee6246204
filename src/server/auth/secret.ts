// The server's HMAC key for reset codes: SERVER_SECRET when set (required when
// several servers share one PostgreSQL), otherwise a random key made once and
// kept beside the embedded database, readable by its owner only.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE, PRIVATE_FOLDER } from '../privateData';

export function loadServerSecret(opts: { serverSecret?: string; dataDir: string }): Buffer {
  if (opts.serverSecret) return Buffer.from(opts.serverSecret, 'utf8');
  const file = path.join(opts.dataDir, 'server-secret');
  mkdirSync(opts.dataDir, { recursive: true, mode: PRIVATE_FOLDER });
  try {
    // 'wx' fails if it exists, so two starts at once never overwrite each other's key.
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: PRIVATE_FILE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
