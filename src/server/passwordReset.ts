// The forgot-password flow (SPEC 4 and 8): a six-digit code e-mailed to the
// passenger, stored hashed, valid for 15 minutes and 5 tries, one use.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from './db/index';
import { findAccount } from './passengers';
import { hashPassword } from './auth/passwords';
import { enqueueEmail } from './mail/queue';
import { HttpError } from './http';
import {
  PASSWORD_RESET_DONE, RESET_CODE_EXPIRED, RESET_CODE_INVALID, RESET_CODE_SENT, RESET_CODE_VERIFIED, RESET_EMAIL_NOT_FOUND,
} from '../domain/messages';

export const CODE_MINUTES = 15;
export const MAX_ATTEMPTS = 5;
export const MAX_CODES_PER_HOUR = 5;

// A six-digit code has little entropy whatever the hash; the expiry and attempt limit are what protect it.
const digest = (passengerId: number, code: string) => createHash('sha256').update(`${passengerId}:${code}`).digest('hex');

export async function sendResetCode(db: Db, email: string, companyName: string): Promise<string> {
  const account = await findAccount(db, email);
  if (!account) throw new HttpError(404, RESET_EMAIL_NOT_FOUND, 'email');
  const [{ n }] = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM password_reset_codes WHERE passenger_id = $1 AND created_at > now() - interval '1 hour'",
    [account.id]);
  if (n >= MAX_CODES_PER_HOUR) throw new HttpError(429, 'Too many reset codes were asked for. Please try again in an hour or call us.');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction(async (tx) => {
    await tx.query('UPDATE password_reset_codes SET used_at = now() WHERE passenger_id = $1 AND used_at IS NULL', [account.id]);
    await tx.query(
      'INSERT INTO password_reset_codes (passenger_id, code_hash, expires_at) VALUES ($1, $2, now() + make_interval(mins => $3))',
      [account.id, digest(account.id, code), CODE_MINUTES]);
    const text = `Your ${companyName} password reset code is ${code}. It expires in ${CODE_MINUTES} minutes.\n\nIf you did not ask for it, you can ignore this e-mail.`;
    await enqueueEmail(tx, {
      kind: 'password_reset', to: account.email, subject: `Your password reset code: ${code}`, text,
      html: `<p>Your ${companyName} password reset code is <strong style="font-size:20px">${code}</strong>.</p><p>It expires in ${CODE_MINUTES} minutes. If you did not ask for it, you can ignore this e-mail.</p>`,
    });
  });
  return RESET_CODE_SENT;
}

/** Checks a code, counting the try; returns the passenger's id when it is right. */
async function checkCode(db: Db, email: string, code: string): Promise<{ passengerId: number; codeId: number }> {
  const account = await findAccount(db, email);
  if (!account) throw new HttpError(404, RESET_EMAIL_NOT_FOUND, 'email');
  const [row] = await db.query<{ id: number; code_hash: string; expired: boolean; attempts: number }>(
    `SELECT id, code_hash, expires_at < now() AS expired, attempts FROM password_reset_codes
      WHERE passenger_id = $1 AND used_at IS NULL ORDER BY created_at DESC LIMIT 1`, [account.id]);
  if (!row || row.expired || row.attempts >= MAX_ATTEMPTS) throw new HttpError(422, RESET_CODE_EXPIRED, 'code');
  await db.query('UPDATE password_reset_codes SET attempts = attempts + 1 WHERE id = $1', [row.id]);
  const given = Buffer.from(digest(account.id, code));
  if (!timingSafeEqual(given, Buffer.from(row.code_hash))) throw new HttpError(422, RESET_CODE_INVALID, 'code');
  return { passengerId: account.id, codeId: row.id };
}

export async function verifyResetCode(db: Db, email: string, code: string): Promise<string> {
  await checkCode(db, email, code);
  return RESET_CODE_VERIFIED;
}

export async function resetPassword(db: Db, email: string, code: string, newPassword: string): Promise<string> {
  const { passengerId, codeId } = await checkCode(db, email, code);
  const hash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    await tx.query('UPDATE passengers SET password_hash = $2 WHERE id = $1', [passengerId, hash]);
    await tx.query('UPDATE password_reset_codes SET used_at = now() WHERE id = $1', [codeId]);
  });
  return PASSWORD_RESET_DONE;
}
