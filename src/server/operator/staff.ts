// The office's staff: who they are, how they sign in, and their sessions. Passwords are hashed as passengers' are
// (auth/passwords.ts) and sign-ins are counted by the same limits (auth/throttle.ts, under keys of their own). A
// session is 256 random bits handed to the browser once, as an HttpOnly cookie (./session.ts), and stored only as a
// hash; it ends at sign-out, STAFF_SESSION_HOURS after sign-in however it is used, and STAFF_IDLE_MINUTES after the last
// call a person made (the board's background poll is no use of it). Checking it and recording its use is one statement.
import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/index';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../auth/passwords';
import { reserveSignInAttempt, signInSucceeded } from '../auth/throttle';
import { DomainError } from '../errors';
import { isEmail } from '../../domain/fields';
import { STAFF_ROLES, type StaffRole } from '../../domain/operatorDesk';
import { DEFAULT_STAFF_SESSION, type StaffSessionConfig } from '../config';
import { dbsErrors, dbsRecord, type Dbs, type DbsInput } from '../../domain/staffRegister';
import { ukToday } from '../../domain/ukTime';


export interface Staff { id: number; email: string; name: string; role: StaffRole; company_id: number | null; company_name: string | null }

/** The sign-in limits count staff under keys of their own, so a passenger with the same e-mail shares nothing. */
const throttleKey = (email: string) => `staff:${email.trim().toLowerCase()}`;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

const STAFF_COLUMNS = `s.id, s.email, s.name, s.role, s.company_id, c.company_name`;

export interface NewStaff {
  email: string; name: string; role: string; companyName?: string; password?: string;
  /** The register's DBS certificate number and the date it was seen (issue 43); left out: kept as it was. */
  dbs?: DbsInput;
}

/** The DBS record to keep, or a 422 naming its field (src/domain/staffRegister.ts dbsErrors). */
function checkedDbs(dbs: DbsInput, today: string): Dbs {
  const [field, message] = Object.entries(dbsErrors(dbs, today))[0] ?? [];
  if (field) throw new DomainError('invalid', message!, field);
  return dbsRecord(dbs);
}

/** A password for a new member of staff, when none is given: 16 letters and digits, shown once. */
export const newPassword = () => randomBytes(12).toString('base64url');

/**
 * Adds a member of staff, or changes the one with that e-mail (name, role, company, password). A company member
 * belongs to one company, named exactly; the others to none. Returns the password it set.
 */
export async function addStaff(db: Queryable, s: NewStaff, hashCost: number, today = ukToday()): Promise<{ id: number; password: string }> {
  const email = s.email.trim();
  const dbs = s.dbs ? checkedDbs(s.dbs, today) : null;
  if (!isEmail(email)) throw new DomainError('invalid', 'Enter a valid e-mail address.', 'email');
  if (!s.name.trim()) throw new DomainError('invalid', 'Enter the name.', 'name');
  if (!(STAFF_ROLES as readonly string[]).includes(s.role)) throw new DomainError('invalid', `The role is one of ${STAFF_ROLES.join(', ')}.`, 'role');
  let companyId: number | null = null;
  if (s.role === 'company') {
    if (!s.companyName?.trim()) throw new DomainError('invalid', 'A company member needs the company, by its name.', 'company');
    const [c] = await db.query<{ id: number }>('SELECT id FROM companies WHERE company_name = $1', [s.companyName.trim()]);
    if (!c) throw new DomainError('invalid', `No company called "${s.companyName.trim()}".`, 'company');
    companyId = c.id;
  } else if (s.companyName?.trim()) {
    throw new DomainError('invalid', 'Only a company member belongs to a company.', 'company');
  }
  const password = s.password ?? newPassword();
  if (password.length < 10) throw new DomainError('invalid', 'A staff password is at least 10 characters.', 'password');
  const hash = await hashPassword(password, hashCost);
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO staff (email, name, role, company_id, password_hash, dbs_number, dbs_seen_on) VALUES ($1, $2, $3, $4, $5, $6, $7::date)
     ON CONFLICT (lower(email)) DO UPDATE SET name = EXCLUDED.name, role = EXCLUDED.role, company_id = EXCLUDED.company_id,
       password_hash = EXCLUDED.password_hash, active = true,
       dbs_number = CASE WHEN $8 THEN EXCLUDED.dbs_number ELSE staff.dbs_number END,
       dbs_seen_on = CASE WHEN $8 THEN EXCLUDED.dbs_seen_on ELSE staff.dbs_seen_on END
     RETURNING id`, [email, s.name.trim(), s.role, companyId, hash, dbs?.dbs_number ?? null, dbs?.dbs_seen_on ?? null, dbs !== null]);
  // A new password ends every session signed in with the old one.
  await db.query('UPDATE staff_sessions SET revoked_at = now() WHERE staff_id = $1 AND revoked_at IS NULL', [row.id]);
  return { id: row.id, password };
}

/** Stops a member of staff signing in; their sessions end at once. */
export async function removeStaff(db: Queryable, email: string): Promise<boolean> {
  const rows = await db.query<{ id: number }>('UPDATE staff SET active = false WHERE lower(email) = lower($1) RETURNING id', [email.trim()]);
  if (rows.length) await db.query('UPDATE staff_sessions SET revoked_at = now() WHERE staff_id = $1 AND revoked_at IS NULL', [rows[0].id]);
  return rows.length > 0;
}

/** The staff register: everyone who has signed in to the office, with their DBS record, those who still may first. */
export async function listStaff(db: Queryable) {
  return db.query<Staff & { active: boolean; created_at: string } & Dbs>(
    `SELECT ${STAFF_COLUMNS}, s.active, to_char(s.created_at AT TIME ZONE 'Europe/London', 'DD-MM-YYYY HH24:MI') AS created_at,
            s.dbs_number, to_char(s.dbs_seen_on, 'YYYY-MM-DD') AS dbs_seen_on
       FROM staff s LEFT JOIN companies c ON c.id = s.company_id ORDER BY s.active DESC, s.name`);
}

/**
 * Records the DBS certificate a member of staff showed (or clears it: both empty), leaving everything else of theirs
 * as it is; one statement. Answers the record before and after, or null when no one has that e-mail.
 */
export async function setStaffDbs(db: Queryable, email: string, input: DbsInput, today = ukToday()): Promise<{ name: string; email: string; before: Dbs; after: Dbs } | null> {
  const dbs = checkedDbs(input, today);
  const [row] = await db.query<{ name: string; email: string; before_number: string | null; before_seen: string | null }>(
    `UPDATE staff s SET dbs_number = $2, dbs_seen_on = $3::date
       FROM (SELECT id, dbs_number, to_char(dbs_seen_on, 'YYYY-MM-DD') AS dbs_seen_on FROM staff WHERE lower(email) = lower($1) FOR UPDATE) old
      WHERE s.id = old.id
      RETURNING s.name, s.email, old.dbs_number AS before_number, old.dbs_seen_on AS before_seen`, [email.trim(), dbs.dbs_number, dbs.dbs_seen_on]);
  return row ? { name: row.name, email: row.email, before: { dbs_number: row.before_number, dbs_seen_on: row.before_seen }, after: dbs } : null;
}

/**
 * A staff sign-in: counted before the password is looked at (429 at a limit); an unknown e-mail costs the same
 * hashing time as a known one. Returns a new session token, or null when the e-mail or password is wrong.
 */
export async function signInStaff(db: Db, email: string, password: string, client: string, hashCost: number):
  Promise<{ token: string; staff: Staff } | null> {
  await reserveSignInAttempt(db, throttleKey(email), client);
  const [row] = await db.query<Staff & { password_hash: string }>(
    `SELECT ${STAFF_COLUMNS}, s.password_hash FROM staff s LEFT JOIN companies c ON c.id = s.company_id
      WHERE lower(s.email) = lower($1) AND s.active`, [email.trim()]);
  if (!row) {
    await verifyAgainstDecoy(password, hashCost);
    return null;
  }
  const check = await verifyPassword(password, row.password_hash, hashCost);
  if (!check.ok) return null;
  await signInSucceeded(db, throttleKey(email), client);
  if (check.needsRehash) {
    await db.query('UPDATE staff SET password_hash = $2 WHERE id = $1 AND password_hash = $3',
      [row.id, await hashPassword(password, hashCost), row.password_hash]);
  }
  const token = randomBytes(32).toString('base64url');
  await db.query('INSERT INTO staff_sessions (token_hash, staff_id) VALUES ($1, $2)', [hashOf(token), row.id]);
  const { password_hash: _hash, ...staff } = row;
  return { token, staff };
}

export interface SessionUse {
  /** How long sessions last. */
  limits?: Pick<StaffSessionConfig, 'hours' | 'idleMinutes'>;
  /** The console's background poll: checks the session without counting as use, so an open board never keeps it. */
  background?: boolean;
}

/**
 * The member of staff a live session belongs to, recording a person's use of it; null when it is unknown, ended, too
 * old, unused too long, or its member removed. A person's call is one UPDATE ... RETURNING; the poll only reads.
 */
export async function staffOfSession(db: Queryable, token: string, use: SessionUse = {}): Promise<Staff | null> {
  if (!/^[\w-]{43}$/.test(token)) return null;
  const { hours, idleMinutes } = use.limits ?? DEFAULT_STAFF_SESSION;
  const live = `token_hash = $1 AND revoked_at IS NULL
    AND created_at > now() - make_interval(hours => $2) AND last_used_at > now() - make_interval(mins => $3)`;
  const session = use.background
    ? `SELECT staff_id FROM staff_sessions WHERE ${live}`
    : `UPDATE staff_sessions SET last_used_at = now() WHERE ${live} RETURNING staff_id`;
  const [row] = await db.query<Staff>(
    `WITH used AS (${session})
     SELECT ${STAFF_COLUMNS} FROM used JOIN staff s ON s.id = used.staff_id AND s.active LEFT JOIN companies c ON c.id = s.company_id`,
    [hashOf(token), hours, idleMinutes]);
  return row ?? null;
}

export async function endSession(db: Queryable, token: string): Promise<void> {
  await db.query('UPDATE staff_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [hashOf(token)]);
}
