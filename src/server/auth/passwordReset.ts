// The forgot-password flow (SPEC 4 and 8): a six-digit code e-mailed to the
// passenger, valid for 15 minutes and 5 tries, one use. Only an HMAC of the
// code (server secret, random salt per code) is stored; the e-mail's subject
// never carries the code, and its body is erased once it is sent.
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/index';
import { findAccount } from './passengers';
import { hashPassword } from './passwords';
import { clearSignInFailures } from './throttle';
import { revokeAllTokens } from './tokens';
import { enqueueEmail } from '../mail/queue';
import { DomainError } from '../errors';
import { allowMessage, returnAllowance, takeAllowance, type Limits } from '../limits';
import { consumeCode, codesInLastHour, countTry, lockPassenger, replaceCode, setPasswordHash } from './queries';
import {
  PASSWORD_RESET_DONE, RESET_CODE_EXPIRED, RESET_CODE_INVALID, RESET_CODE_SENT, RESET_CODE_VERIFIED, RESET_EMAIL_NOT_FOUND,
} from '../../domain/messages';

export const CODE_MINUTES = 15;
export const MAX_ATTEMPTS = 5;
export const MAX_CODES_PER_HOUR = 5;
export const RESET_MAIL_SUBJECT = 'Your password reset code';

export interface ResetDeps {
  db: Db; secret: Buffer; hashCost: number;
  /** Who asks (client address) and the allowances: look-ups that find no account are limited per address. */
  client: string; limits: Limits;
}

const mac = (secret: Buffer, salt: string, passengerId: number, code: string) =>
  createHmac('sha256', secret).update(`${salt}:${passengerId}:${code}`).digest('base64url');

/** `salt$hmac`: a six-digit code has little entropy, so without the server secret the hash alone cannot be searched. */
export function hashResetCode(secret: Buffer, passengerId: number, code: string): string {
  const salt = randomBytes(12).toString('base64url');
  return `${salt}$${mac(secret, salt, passengerId, code)}`;
}

function codeMatches(secret: Buffer, passengerId: number, code: string, stored: string): boolean {
  const [salt, expected] = stored.split('$');
  if (!salt || !expected) return false;
  const given = Buffer.from(mac(secret, salt, passengerId, code));
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
}

/**
 * SPEC 8 answers 'Email not found', which tells whether an address has an account: every look-up is counted per
 * client address first (limits.ts, 429 once used up), and one that finds an account is given back, so a person
 * resetting their own password is never held up by the limit meant for someone trying addresses.
 */
async function accountOf(d: ResetDeps, email: string) {
  const taken = await takeAllowance(d.db, d.limits, [{ limit: 'accountLookups', key: d.client }]);
  const account = await findAccount(d.db, email);
  if (!account) throw new DomainError('notFound', RESET_EMAIL_NOT_FOUND, 'email');
  await returnAllowance(d.db, taken);
  return account;
}

export async function sendResetCode(d: ResetDeps, email: string, companyName: string): Promise<string> {
  const account = await accountOf(d, email);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await d.db.transaction(async (tx) => {
    // One request per account at a time, so the hourly limit cannot be raced.
    await lockPassenger(tx, account.id);
    if (await codesInLastHour(tx, account.id) >= MAX_CODES_PER_HOUR) {
      throw new DomainError('tooMany', 'Too many reset codes were asked for. Please try again in an hour or call us.');
    }
    // Its e-mail counts against the address's allowance like every message a visitor's action sends (issue 39), in
    // the same transaction, so a refusal above counts nothing. It is never refused for it: a code carries no words of
    // the visitor's, has its own limit per account (above), and whoever spent the address's messages must not lock
    // its owner out of their account.
    await allowMessage(tx, d.limits, account.email);
    await replaceCode(tx, account.id, hashResetCode(d.secret, account.id, code), CODE_MINUTES);
    const text = `Your ${companyName} password reset code is ${code}. It expires in ${CODE_MINUTES} minutes.\n\nIf you did not ask for it, you can ignore this e-mail.`;
    await enqueueEmail(tx, {
      kind: 'password_reset', to: account.email, subject: RESET_MAIL_SUBJECT, text, eraseAfterSend: true,
      html: `<p>Your ${companyName} password reset code is <strong style="font-size:20px">${code}</strong>.</p><p>It expires in ${CODE_MINUTES} minutes. If you did not ask for it, you can ignore this e-mail.</p>`,
    });
  });
  return RESET_CODE_SENT;
}

/**
 * Counts a try and checks the code. Counting is one statement that succeeds
 * only while the newest code is unused, unexpired and under its limit, so
 * concurrent tries can never exceed it; the code is compared only after that.
 */
async function checkCode(d: ResetDeps, email: string, code: string): Promise<{ passengerId: number; codeId: number }> {
  const account = await accountOf(d, email);
  const row = await countTry(d.db, account.id, MAX_ATTEMPTS);
  if (!row) throw new DomainError('invalid', RESET_CODE_EXPIRED, 'code');
  if (!codeMatches(d.secret, account.id, code, row.code_hash)) throw new DomainError('invalid', RESET_CODE_INVALID, 'code');
  return { passengerId: account.id, codeId: row.id };
}

export async function verifyResetCode(d: ResetDeps, email: string, code: string): Promise<string> {
  await checkCode(d, email, code);
  return RESET_CODE_VERIFIED;
}

export async function resetPassword(d: ResetDeps, email: string, code: string, newPassword: string): Promise<string> {
  const { passengerId, codeId } = await checkCode(d, email, code);
  const hash = await hashPassword(newPassword, d.hashCost);
  await d.db.transaction(async (tx) => {
    // Used once: of two resets with one code, only the first changes the password.
    if (!(await consumeCode(tx, codeId))) throw new DomainError('invalid', RESET_CODE_EXPIRED, 'code');
    await setPasswordHash(tx, passengerId, hash);
    await clearSignInFailures(tx, email);
    await revokeAllTokens(tx, passengerId);
  });
  return PASSWORD_RESET_DONE;
}
