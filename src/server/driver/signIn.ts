// A driver signs in with their mobile and a one-time code texted to it (issue 41 §2, decision 56): six digits, 10
// minutes, 5 tries, one use, only an HMAC of it kept (the server secret, a salt per code). Asking for a code answers
// the same whether or not the mobile is a driver's, and is counted per client address and per mobile before anything
// is looked up, so the answers tell nothing. The code's check counts against the site's sign-in limits (auth/
// throttle.ts). A session per device lasts until sign-out, until the office makes the driver inactive, or 30 days unused.
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db, Queryable } from '../db/index';
import { DomainError } from '../errors';
import { enqueueSms } from '../mail/queue';
import { takeAllowance, type Limits } from '../limits';
import { reserveSignInAttempt, signInSucceeded } from '../auth/throttle';
import { isUkMobile } from '../../domain/fleetRecords';
import { normalisePhone } from '../../domain/phone';

export const DRIVER_CODE_MINUTES = 10;
export const DRIVER_CODE_TRIES = 5;
export const DRIVER_SESSION_DAYS = 30;
/** However often it is used, a session ends this long after its sign-in (a stolen phone's session does not live on). */
export const DRIVER_SESSION_MAX_DAYS = 90;

export const DRIVER_MESSAGES = {
  mobile: 'Enter the UK mobile number the office has for you, e.g. 07700 900123.',
  codeSent: 'If this number is on our record, a 6-digit code is on its way by text. It works for 10 minutes.',
  codeShape: 'Enter the 6-digit code from the text.',
  // One answer for a wrong code, an old one and a number that is not a driver's: which it was would say whether the
  // number is on the record.
  codeWrong: 'That code is not right or has expired. Check the text, or ask for a new code.',
  codeGone: 'That code is not right or has expired. Check the text, or ask for a new code.',
  signedOut: 'Please sign in again: your session has ended.',
} as const;

export interface Driver { id: number; name: string; mobile: string; company_id: number; company_name: string }

export interface SignInDeps { db: Db; secret: Buffer; limits: Limits; client: string; companyName: string }

const mac = (secret: Buffer, salt: string, driverId: number, code: string) =>
  createHmac('sha256', secret).update(`driver:${salt}:${driverId}:${code}`).digest('base64url');
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The typed mobile as stored, or a 422 naming the field. */
function mobileOf(typed: unknown): string {
  const mobile = normalisePhone(typeof typed === 'string' ? typed : '');
  if (!mobile || !isUkMobile(mobile)) throw new DomainError('invalid', DRIVER_MESSAGES.mobile, 'mobile');
  return mobile;
}

const activeDriver = async (db: Queryable, mobile: string) => (await db.query<Driver>(
  `SELECT d.id, d.name, d.mobile, d.company_id, c.company_name FROM drivers d JOIN companies c ON c.id = d.company_id
    WHERE d.mobile = $1 AND d.active`, [mobile]))[0] ?? null;

/** Texts a new code to a driver's mobile; the same answer for any UK mobile. */
/**
 * How long asking for a code takes at least, whether or not the number is a driver's: the work done for a driver's
 * number (a code made, a text queued) is not to be timed to tell drivers' numbers from others.
 */
export const CODE_ANSWER_MS = 400;

export async function requestCode(d: SignInDeps, typedMobile: unknown): Promise<string> {
  const mobile = mobileOf(typedMobile);
  await takeAllowance(d.db, d.limits, [{ limit: 'driverCodes', key: d.client }, { limit: 'driverCodesPerMobile', key: mobile }]);
  const driver = await activeDriver(d.db, mobile);
  if (!driver) return DRIVER_MESSAGES.codeSent;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(12).toString('base64url');
  await d.db.transaction(async (tx) => {
    // Only the newest code works: an older one still unused is spent now.
    await tx.query('UPDATE driver_codes SET used_at = now() WHERE driver_id = $1 AND used_at IS NULL', [driver.id]);
    await tx.query(
      'INSERT INTO driver_codes (driver_id, code_hash, expires_at) VALUES ($1, $2, now() + make_interval(mins => $3))',
      [driver.id, `${salt}$${mac(d.secret, salt, driver.id, code)}`, DRIVER_CODE_MINUTES]);
    await enqueueSms(tx, {
      kind: 'driver_sign_in_code', to: mobile, label: 'Driver sign-in code', eraseAfterSend: true,
      text: `${code} is your ${d.companyName} driver code. It works for ${DRIVER_CODE_MINUTES} minutes. Never share it.`,
    });
  });
  return DRIVER_MESSAGES.codeSent;
}

/**
 * Checks a code: one try is counted by the statement that finds the newest live code (so concurrent tries never
 * exceed 5), the code compared after; a right code is spent at once (of two sign-ins with it, one wins). A new session
 * token for this device, and the driver.
 */
export async function signInDriver(d: SignInDeps, typedMobile: unknown, typedCode: unknown): Promise<{ token: string; driver: Driver }> {
  const mobile = mobileOf(typedMobile);
  const code = typeof typedCode === 'string' ? typedCode.replace(/\s+/g, '') : '';
  if (!/^\d{6}$/.test(code)) throw new DomainError('invalid', DRIVER_MESSAGES.codeShape, 'code');
  const throttleKey = `driver:${mobile}`;
  // The site's sign-in limits, whose refusal names the code field here (the form has no password).
  await reserveSignInAttempt(d.db, throttleKey, d.client).catch((err) => {
    if (err instanceof DomainError) throw new DomainError(err.kind, err.message, 'code', err.retryAfterSeconds);
    throw err;
  });
  const driver = await activeDriver(d.db, mobile);
  if (!driver) throw new DomainError('invalid', DRIVER_MESSAGES.codeGone, 'code');
  const [row] = await d.db.query<{ id: number; code_hash: string }>(
    `UPDATE driver_codes SET tries = tries + 1
      WHERE id = (SELECT id FROM driver_codes WHERE driver_id = $1 ORDER BY id DESC LIMIT 1)
        AND used_at IS NULL AND expires_at > now() AND tries < $2
      RETURNING id, code_hash`, [driver.id, DRIVER_CODE_TRIES]);
  if (!row) throw new DomainError('invalid', DRIVER_MESSAGES.codeGone, 'code');
  const [salt, expected] = row.code_hash.split('$');
  const given = Buffer.from(mac(d.secret, salt, driver.id, code));
  if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {
    throw new DomainError('invalid', DRIVER_MESSAGES.codeWrong, 'code');
  }
  const token = randomBytes(32).toString('base64url');
  const signedIn = await d.db.transaction(async (tx) => {
    const [spent] = await tx.query('UPDATE driver_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL RETURNING id', [row.id]);
    if (!spent) return false;
    await tx.query('INSERT INTO driver_sessions (token_hash, driver_id) VALUES ($1, $2)', [hashOf(token), driver.id]);
    return true;
  });
  if (!signedIn) throw new DomainError('invalid', DRIVER_MESSAGES.codeGone, 'code');
  await signInSucceeded(d.db, throttleKey, d.client);
  return { token, driver };
}

/**
 * The driver a live session belongs to (and the session's use recorded); null when unknown, ended, unused 30 days,
 * signed in more than 90 days ago, or the driver inactive.
 */
export async function driverOfSession(db: Queryable, token: string | undefined): Promise<Driver | null> {
  if (!token || !/^[\w-]{43}$/.test(token)) return null;
  const [row] = await db.query<Driver>(
    `WITH used AS (UPDATE driver_sessions SET last_used_at = now()
                    WHERE token_hash = $1 AND last_used_at > now() - make_interval(days => $2)
                      AND created_at > now() - make_interval(days => $3) RETURNING driver_id)
     SELECT d.id, d.name, d.mobile, d.company_id, c.company_name
       FROM used JOIN drivers d ON d.id = used.driver_id AND d.active JOIN companies c ON c.id = d.company_id`,
    [hashOf(token), DRIVER_SESSION_DAYS, DRIVER_SESSION_MAX_DAYS]);
  return row ?? null;
}

export async function endDriverSession(db: Queryable, token: string): Promise<void> {
  await db.query('DELETE FROM driver_sessions WHERE token_hash = $1', [hashOf(token)]);
}
