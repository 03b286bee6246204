// Allowances against abuse: how often one client address (or one recipient, or one booking) may do something that
// costs the operator (a password hash, an e-mail in the operator's name, a card attempt). Each is counted BEFORE the
// work, in one statement over every key it is counted on, so concurrent requests cannot all slip under a limit
// (decision 35); a request that then does no work (refused for any reason, a conflict, a replay) gives back what it
// took (decision 51). The sign-in limits (auth/throttle.ts) are older and kept apart: they have three keys and their own
// give-back rule. README 'Security and reliability' lists every number here.
import type { Queryable } from './db/index';
import { DomainError } from './errors';
import { mailboxKey as addressKey } from '../domain/fields';

export interface Limit {
  /** Uses allowed per window, per key. */
  max: number;
  windowMinutes: number;
  /**
   * What the person is told once it is used up. The card allowances have none: their caller gives the card page's
   * words, which offer Pay in Car and the office's phone as the settings say (cardRefusal in cardBookings.ts).
   */
  message?: string;
  /** The request field the 429 names. */
  field?: string;
}

const HOUR = 60;

/** The defaults; RATE_LIMITS (config.ts) may change `max` of any of them. */
export const DEFAULT_LIMITS = {
  /** New accounts (new-client bookings) per client address, counted before the password is hashed. */
  accountCreations: {
    max: 5, windowMinutes: HOUR, field: 'registrationData.email',
    message: 'Too many accounts were created from your network in the last hour. Please book as a guest, try again later or call us.',
  },
  /** Forgot-password, verify-code and reset-password look-ups per client address; a look-up that finds an account is given back. */
  accountLookups: {
    max: 10, windowMinutes: HOUR, field: 'email',
    message: 'Too many e-mail addresses were looked up from your network. Please try again in an hour or call us.',
  },
  contactMessages: {
    max: 5, windowMinutes: HOUR,
    message: 'Too many messages were sent from your network in the last hour. Please try again later or call us.',
  },
  quoteRequests: {
    max: 5, windowMinutes: HOUR,
    message: 'Too many quote requests were sent from your network in the last hour. Please try again later or call us.',
  },
  /** Bookings made without a corporate sign-in (guest, new or existing client), per client address. */
  bookings: {
    max: 10, windowMinutes: HOUR, field: 'registrationData.email',
    message: 'Too many bookings were made from your network in the last hour. Please call us to book, or sign in.',
  },
  /** Confirmations of such bookings to one e-mail address, whoever sends them (an existing client's own address is exempt). */
  confirmationsToAddress: {
    max: 3, windowMinutes: HOUR, field: 'registrationData.email',
    message: 'Too many bookings were confirmed to this e-mail address in the last hour. Please call us to book.',
  },
  /**
   * Every message the site sends to a visitor-given address because of a visitor's action (a booking's confirmation,
   * a change's or cancellation's notice, a "Find my booking" link), per recipient, whatever caused it (issue 39).
   */
  messagesToAddress: {
    max: 10, windowMinutes: HOUR, field: 'registrationData.email',
    message: 'Too many messages were sent to this e-mail address in the last hour. Please call us, or try again later.',
  },
  /** "Find my booking" per client address (issue 27), counted whether or not the reference and e-mail match. */
  bookingLookups: {
    max: 10, windowMinutes: HOUR, field: 'reference',
    message: 'Too many bookings were looked up from your network in the last hour. Please try again later or call us.',
  },
  /** "Find my booking" links sent for one reference, counted whether or not it exists (so a 429 tells nothing). */
  linksPerBooking: {
    max: 3, windowMinutes: HOUR, field: 'reference',
    message: 'The link to this booking was asked for several times in the last hour. Please check your e-mail, or try again later.',
  },
  /** A passenger's changes and cancelling of one booking from its page (issue 27): each e-mails the passenger and the office. */
  bookingChanges: {
    max: 20, windowMinutes: HOUR, field: 'passenger_name',
    message: 'This booking was changed many times in the last hour. Please call us to make more changes.',
  },
  /** Drivers' sign-in codes asked for from one client address (issue 41), counted whether or not the mobile is a driver's. */
  driverCodes: {
    max: 10, windowMinutes: HOUR, field: 'mobile',
    message: 'Too many sign-in codes were asked for from your network in the last hour. Please try again later or call the office.',
  },
  /** Sign-in codes texted to one mobile, counted whether or not it is a driver's (so a 429 tells nothing). */
  driverCodesPerMobile: {
    max: 5, windowMinutes: HOUR, field: 'mobile',
    message: 'Several codes were sent to this number in the last hour. Please use the last one, or try again later.',
  },
  /** Declined or failed card attempts per client address. */
  cardFailures: {
    max: 5, windowMinutes: HOUR, field: 'paymentMethodId',
  },
  /** Declined or failed card attempts on one booking (a booking waits for its card for a day at most). */
  cardFailuresPerBooking: {
    max: 3, windowMinutes: 24 * HOUR, field: 'paymentMethodId',
  },
} satisfies Record<string, Limit>;

export type LimitName = keyof typeof DEFAULT_LIMITS;
export type Limits = Record<LimitName, Limit>;

/** RATE_LIMITS: `name=max` pairs separated by commas (e.g. `bookings=50,contactMessages=20`). */
export function parseLimits(text: string | undefined): Limits {
  const limits: Limits = { ...DEFAULT_LIMITS };
  for (const pair of (text ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, value] = pair.split('=').map((s) => s.trim());
    if (!(name in DEFAULT_LIMITS)) {
      throw new Error(`RATE_LIMITS: "${name}" is not a limit; known: ${Object.keys(DEFAULT_LIMITS).join(', ')}`);
    }
    const max = Number(value);
    if (!Number.isInteger(max) || max < 1) throw new Error(`RATE_LIMITS: ${name} must be a whole number of at least 1, not "${value}"`);
    limits[name as LimitName] = { ...DEFAULT_LIMITS[name as LimitName], max };
  }
  return limits;
}

export interface Use {
  limit: LimitName; key: string;
  /** The request field a refusal names, when this caller's form calls it otherwise than the limit does. */
  field?: string;
}

/**
 * What a request spent: each key's row and the window it was counted in, so that a request that then did no work
 * gives back exactly what it took (returnAllowance), never a use of a later window.
 */
export interface Taken { uses: { name: LimitName; key: string; window_started: string }[] }

export const NOTHING_TAKEN: Taken = { uses: [] };

/** One key's count as the counting statement takes it: the limit's numbers go with it. */
export interface AllowanceRow { name: LimitName; key: string; max_used: number; window_minutes: number }

/** The rows to count for `uses`: each key once, in a fixed order, so two requests counting the same keys never wait for each other in a circle (PostgreSQL). */
export function allowanceRows(limits: Limits, uses: Use[]): AllowanceRow[] {
  return [...new Map(uses.map((u) => [`${u.limit}\u0000${u.key}`, u])).values()]
    .sort((a, b) => (a.limit === b.limit ? (a.key < b.key ? -1 : 1) : a.limit < b.limit ? -1 : 1))
    .map((u) => ({ name: u.limit, key: u.key, max_used: limits[u.limit].max, window_minutes: limits[u.limit].windowMinutes }));
}

/**
 * The counting statement, on the rows in the JSON parameter `rows` (allowanceRows): a row within its allowance is
 * counted and returned with the window it was counted in; a used-up one is neither. The booking's statement counts
 * with it too (bookings/queries.ts, issue 40), several bookings' uses of one key at once (a row's `uses`, else one):
 * all of them fit in what is left, or none is counted.
 */
export const countAllowanceSql = (rows: string) => `INSERT INTO rate_limits AS r (name, key, used, max_used, window_minutes)
     SELECT u.name, u.key, coalesce(u.uses, 1), u.max_used, u.window_minutes
       FROM json_to_recordset(${rows}) AS u(name text, key text, max_used int, window_minutes int, uses int)
      WHERE coalesce(u.uses, 1) <= u.max_used
     ON CONFLICT (name, key) DO UPDATE SET
       used = CASE WHEN r.window_started <= now() - make_interval(mins => EXCLUDED.window_minutes) THEN EXCLUDED.used ELSE r.used + EXCLUDED.used END,
       window_started = CASE WHEN r.window_started <= now() - make_interval(mins => EXCLUDED.window_minutes) THEN now() ELSE r.window_started END,
       max_used = EXCLUDED.max_used, window_minutes = EXCLUDED.window_minutes
     WHERE r.window_started <= now() - make_interval(mins => EXCLUDED.window_minutes) OR r.used + EXCLUDED.used <= EXCLUDED.max_used
     RETURNING r.name, r.key, r.window_started::text AS window_started`;

/**
 * Counts one use on every key in one statement; when any key is used up the request is refused with 429 (the first
 * used-up limit's message, and Retry-After when its window ends) and the keys that were counted are given back at
 * once: a refused request spends nothing (issue 39). `message` replaces the limit's own text. What was taken is
 * returned for the caller to give back if the work is then not done (refused, a conflict, a replay).
 */
export async function takeAllowance(db: Queryable, limits: Limits, uses: Use[], message?: (limit: LimitName) => string): Promise<Taken> {
  const rows = allowanceRows(limits, uses);
  if (!rows.length) return NOTHING_TAKEN;
  const counted = await db.query<Taken['uses'][number]>(countAllowanceSql('$1::json'), [JSON.stringify(rows)], { prepare: true });
  if (counted.length === rows.length) return { uses: counted };
  await returnAllowance(db, { uses: counted });
  return refuseAllowance(db, limits, uses, rows, { uses: counted }, message);
}

/**
 * A count that found a key used up (`counted` holds the keys it did count, given back by the caller first): the
 * request is refused with 429, the first used-up limit's words and Retry-After when its window ends.
 */
export async function refuseAllowance(
  db: Queryable, limits: Limits, uses: Use[], rows: AllowanceRow[], counted: Taken, message?: (limit: LimitName) => string,
): Promise<never> {
  const done = new Set(counted.uses.map((c) => `${c.name}\u0000${c.key}`));
  const refused = rows.find((r) => !done.has(`${r.name}\u0000${r.key}`))!;
  const limit = limits[refused.name];
  const [row] = await db.query<{ seconds: number }>(
    `SELECT ceil(extract(epoch FROM window_started + make_interval(mins => $3) - now()))::int AS seconds
       FROM rate_limits WHERE name = $1 AND key = $2`, [refused.name, refused.key, limit.windowMinutes]);
  const retryAfter = Math.max(1, row?.seconds ?? limit.windowMinutes * 60);
  const words = message?.(refused.name) ?? limit.message;
  if (words === undefined) throw new Error(`The ${refused.name} allowance has no words of its own: its caller gives them.`);
  const field = uses.find((u) => u.limit === refused.name && u.key === refused.key)?.field ?? limit.field;
  throw new DomainError('tooMany', words, field, retryAfter);
}

/**
 * Gives back, in one statement, what a request took when its work was then not done (refused for any reason, a
 * conflict, a replay of the same Idempotency-Key): only in the window it was counted in, never below nothing.
 */
export async function returnAllowance(db: Queryable, taken: Taken): Promise<void> {
  if (!taken.uses.length) return;
  await db.query(
    `UPDATE rate_limits AS r SET used = greatest(r.used - 1, 0)
       FROM json_to_recordset($1::json) AS t(name text, key text, window_started timestamptz)
      WHERE r.name = t.name AND r.key = t.key AND r.window_started = t.window_started`,
    [JSON.stringify(taken.uses)], { prepare: true });
}

/**
 * Runs `work` with the allowance taken; when it throws, what was taken is given back and the error goes on. `work`
 * may also say that it did nothing new (a replay): `{ done: false }` gives back too.
 */
export async function withAllowance<T>(
  db: Queryable, limits: Limits, uses: Use[], work: () => Promise<{ done: boolean; value: T }>, message?: (limit: LimitName) => string,
): Promise<T> {
  const taken = await takeAllowance(db, limits, uses, message);
  let outcome: { done: boolean; value: T };
  try {
    outcome = await work();
  } catch (err) {
    await returnAllowance(db, taken);
    throw err;
  }
  if (!outcome.done) await returnAllowance(db, taken);
  return outcome.value;
}

/**
 * Counts one message to a recipient that is never refused for it (a security notice, a cancellation's notice: one
 * per event): true when it is within the allowance and may be sent, false when the address had enough this hour.
 */
export async function allowMessage(db: Queryable, limits: Limits, to: string): Promise<boolean> {
  try {
    await takeAllowance(db, limits, [{ limit: 'messagesToAddress', key: addressKey(to) }]);
    return true;
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'tooMany') return false;
    throw err;
  }
}

/** Whether a key is used up now, without counting (to refuse early what would only be refused later). */
export async function usedUp(db: Queryable, limits: Limits, use: Use): Promise<boolean> {
  const [row] = await db.query<{ full: boolean }>(
    `SELECT used >= $3 AND window_started > now() - make_interval(mins => $4) AS full FROM rate_limits WHERE name = $1 AND key = $2`,
    [use.limit, use.key, limits[use.limit].max, limits[use.limit].windowMinutes]);
  return row?.full === true;
}

/** A recipient's key: one mailbox however it is typed, tagged or dotted (src/domain/fields.ts mailboxKey). */
export { addressKey };
