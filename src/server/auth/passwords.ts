// Passenger passwords: scrypt from node:crypto with a random salt per password.
// Each hash records its own parameters, so the cost can rise (PASSWORD_HASH_COST)
// and older hashes are replaced at the next successful sign-in.
import { DomainError } from '../errors';
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';

/** More hashes waiting than this, and a new one is refused (503 with Retry-After) rather than queued. */
export const WAITING_PER_CORE = 4;

/** The password-hashing queue is full: the request is refused, to be tried again shortly. */
export class HashingBusy extends DomainError {
  constructor() { super('busy', 'The server is busy. Please try again in a moment.', undefined, 2); }
}

/**
 * At most `concurrency` tasks at once and `maxWaiting` in line; beyond that `run` throws HashingBusy at once. Each
 * hash takes 128 MiB and a core for a while, so a burst of them must neither fill the memory nor starve sign-ins.
 */
export function boundedQueue(concurrency: number, maxWaiting: number) {
  let running = 0;
  let started = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < concurrency) running++;
      else if (waiting.length >= maxWaiting) throw new HashingBusy();
      else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over, still counted
      started++;
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    get running() { return running; },
    /** Tasks begun since the process started (tests: whether a request hashed at all). */
    get started() { return started; },
    get waiting() { return waiting.length; },
  };
}

/** Every password hash of this process, as many at once as the machine has cores. */
export const hashing = boundedQueue(availableParallelism(), WAITING_PER_CORE * availableParallelism());

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) => hashing.run(() =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key)))));

const R = 8, P = 1, KEYLEN = 32;
/** scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is below N = 2^17. */
const maxmem = (n: number, r: number) => 128 * n * r + 16 * 1024 * 1024;

/** A new hash at 2^cost: `scrypt$N$r$p$salt$key`. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const N = 2 ** cost;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r: R, p: P, maxmem: maxmem(N, R) });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export interface PasswordCheck { ok: boolean; needsRehash: boolean }

/** Checks a password against its stored hash; `needsRehash` when the hash is cheaper than the cost asked for now. */
export async function verifyPassword(password: string, stored: string, cost: number): Promise<PasswordCheck> {
  const [scheme, n, rr, pp, salt, key] = stored.split('$');
  const N = Number(n), r = Number(rr), p = Number(pp);
  if (scheme !== 'scrypt' || !salt || !key || ![N, r, p].every(Number.isInteger)) return { ok: false, needsRehash: false };
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N, r, p, maxmem: maxmem(N, r) });
  const ok = timingSafeEqual(actual, expected);
  return { ok, needsRehash: ok && (N < 2 ** cost || r !== R || p !== P) };
}

const decoys = new Map<number, Promise<string>>();

/**
 * Spends the time a real check costs when there is no account to check, so the
 * answer time does not tell whether an e-mail has an account.
 */
export async function verifyAgainstDecoy(password: string, cost: number): Promise<void> {
  if (!decoys.has(cost)) decoys.set(cost, hashPassword(randomBytes(12).toString('base64'), cost));
  await verifyPassword(password, await decoys.get(cost)!, cost);
}
