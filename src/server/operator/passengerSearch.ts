// Finding a passenger on record for a booking taken by phone (issue 43 §1): by part of a name, an e-mail or a phone
// (its digits, however typed: 07700 900123 finds +447700900123). Accounts first (a booking for one becomes theirs),
// then the details of recent bookings (a guest books again with the details filled in), one entry per e-mail; an
// account comes with the company account it books for (issue 44; for a company's staff, only an account their company
// looks after). A company's staff find only passengers who booked their company; personal data removed (retention) is
// never found.
import type { Queryable } from '../db/index';
import type { Staff } from './staff';
import { scopeOf } from './deskQueries';
import { normalisePhone } from '../../domain/phone';
import type { AccountBilling } from '../../domain/accountPayment';
import { billingOf } from '../accounts/billing';

export interface FoundPassenger {
  /** An account's id (the booking is made for it); null: details from an earlier booking, to fill the form. */
  account_id: number | null;
  name: string; email: string; phone: string;
  /** The day of the latest booking the details come from (UK date); null for an account. */
  last_booked: string | null;
  /** The company account the passenger books for (issue 44: the office may book on it), with its fields; null: none. */
  billing: AccountBilling | null;
}

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

export async function findPassengers(db: Queryable, staff: Staff, q: string): Promise<FoundPassenger[]> {
  const digits = q.replace(/\D/g, '');
  const phone = digits.length >= 5 ? (normalisePhone(q) ?? (q.trim().startsWith('+') ? `+${digits}` : digits)) : null;
  const phoneLike = phone ? likeOf(phone.replace(/^0/, '')) : null;
  const found = await db.query<Omit<FoundPassenger, 'billing'>>(
    `WITH seen AS (
       SELECT DISTINCT ON (lower(p.passenger_email))
              -- The booking's account only when the details are its own (a booker's booking for someone else names
              -- the traveller here, who is not that account: booking for them must not go to the booker, nor on account).
              CASE WHEN a.password_hash IS NOT NULL AND lower(a.email) = lower(p.passenger_email) THEN a.id END AS account_id,
              p.passenger_name AS name, p.passenger_email AS email, p.passenger_contact_no AS phone,
              to_char(b.created_at AT TIME ZONE 'Europe/London', 'DD/MM/YYYY') AS last_booked, b.created_at
         FROM booking_passengers p JOIN bookings b ON b.id = p.booking_id LEFT JOIN passengers a ON a.id = b.passenger_id
        WHERE b.personal_data_removed_at IS NULL AND p.passenger_email <> '' AND ($1::int IS NULL OR b.company_id = $1)
          AND (p.passenger_name ILIKE $2 OR p.passenger_email ILIKE $2 OR ($3::text IS NOT NULL AND p.passenger_contact_no LIKE $3))
        ORDER BY lower(p.passenger_email), b.created_at DESC
     ), accounts AS (
       SELECT a.id AS account_id, a.name, a.email, a.phone, NULL::text AS last_booked, a.created_at
         FROM passengers a
        WHERE a.password_hash IS NOT NULL AND $1::int IS NULL
          AND (a.name ILIKE $2 OR a.email ILIKE $2 OR ($3::text IS NOT NULL AND a.phone LIKE $3))
     )
     -- An account is named as it is now, not as its latest booking named the passenger (a booking may name someone else).
     SELECT one_each.account_id, coalesce(own.name, one_each.name) AS name, coalesce(own.email, one_each.email) AS email,
            coalesce(own.phone, one_each.phone) AS phone, CASE WHEN own.id IS NULL THEN one_each.last_booked END AS last_booked FROM (
       SELECT DISTINCT ON (lower(email)) account_id, name, email, phone, last_booked
         FROM (SELECT * FROM accounts UNION ALL SELECT * FROM seen) x
        ORDER BY lower(email), account_id NULLS LAST, created_at DESC
     ) one_each LEFT JOIN passengers own ON own.id = one_each.account_id
      ORDER BY one_each.account_id IS NULL, 2
      LIMIT 10`, [scopeOf(staff), likeOf(q.trim()), phoneLike]);
  return Promise.all(found.map(async (p) => ({ ...p, billing: p.account_id === null ? null : await billingSeenBy(db, staff, p.account_id) })));
}

/**
 * The company account a passenger books for, as a member of staff may book on it (issue 44): the office's staff any;
 * a company's staff only one their company looks after (another's, or the office's, is not theirs to charge, nor to
 * read). Null: none they may use.
 */
export async function billingSeenBy(db: Queryable, staff: Staff, passengerId: number): Promise<AccountBilling | null> {
  const scope = scopeOf(staff);
  if (scope !== null) {
    const [ours] = await db.query('SELECT 1 FROM passengers p JOIN accounts a ON a.id = p.account_id WHERE p.id = $1 AND a.company_id = $2', [passengerId, scope]);
    if (!ours) return null;
  }
  return billingOf(db, passengerId);
}
