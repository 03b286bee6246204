// Corporate accounts on record (issue 44 §1, decision 62): the account, its booking fields and its bookers, kept from
// the console's Operator data (Accounts) and by `npm run admin`. A company's staff reach their own company's accounts
// only (another's is not found); the office's staff every one. The form rules are the domain's (src/domain/accounts.ts).
import type { Queryable } from '../db/index';
import { DomainError } from '../errors';
import {
  accountErrors, accountRecord, fieldErrors, fieldRecord, MAX_FIELDS, type AccountField, type AccountInput, type AccountRecord,
  type FieldInput,
} from '../../domain/accounts';
import { emailKey } from '../../domain/fields';

/** A company member's company (null: every company), as scopeOf(staff) gives it. */
type Scope = number | null;
type Loose<T> = Partial<Record<keyof T, unknown>>;

export interface AccountRow extends AccountRecord {
  id: number; company_name: string | null; fields: (AccountField & { active: boolean })[];
  bookers: { id: number; name: string; email: string }[];
  /** What the account owes and has booked (unpaid invoices, journeys not yet invoiced), in pence. */
  exposure_pence: number;
}

/**
 * What an account owes and has booked, in pence: its unpaid invoices' amounts due, its journeys on account not yet
 * invoiced (whatever is still to come or finished, at what each now costs), and the notes not yet carried onto an
 * invoice (a debit more, a credit less).
 */
export const EXPOSURE_SQL = `(
  coalesce((SELECT sum(i.amount_due_pence) FROM invoices i WHERE i.account_id = a.id AND i.paid_on IS NULL), 0)
  + coalesce((SELECT sum(b.total_booking_amount_pence) FROM bookings b
               WHERE b.account_id = a.id AND b.status NOT IN ('cancelled', 'expired', 'pending')
                 AND NOT EXISTS (SELECT 1 FROM invoice_bookings ib WHERE ib.booking_id = b.id)), 0)
  + coalesce((SELECT sum(CASE n.kind WHEN 'debit' THEN n.gross_pence ELSE -n.gross_pence END)
                FROM invoice_notes n JOIN invoices i ON i.number = n.invoice_number
               WHERE i.account_id = a.id AND n.carried_to IS NULL), 0))::int`;

const ACCOUNT_COLUMNS = `a.id, a.name, a.address, a.billing_email, a.vat_number, a.terms_days, a.credit_limit_pence, a.status,
  a.status_reason, a.company_id, c.company_name,
  (SELECT coalesce(json_agg(json_build_object('id', f.id, 'label', f.label, 'required', f.required, 'options', f.options, 'active', f.active)
                   ORDER BY f.position, f.id), '[]') FROM account_fields f WHERE f.account_id = a.id) AS fields,
  (SELECT coalesce(json_agg(json_build_object('id', p.id, 'name', p.name, 'email', p.email) ORDER BY p.name, p.id), '[]')
     FROM passengers p WHERE p.account_id = a.id) AS bookers,
  ${EXPOSURE_SQL} AS exposure_pence`;

export const listAccounts = (db: Queryable, scope: Scope) => db.query<AccountRow>(
  `SELECT ${ACCOUNT_COLUMNS} FROM accounts a LEFT JOIN companies c ON c.id = a.company_id
    WHERE $1::int IS NULL OR a.company_id = $1 ORDER BY a.status = 'closed', lower(a.name), a.id`, [scope]);

export async function accountById(db: Queryable, scope: Scope, id: number): Promise<AccountRow | null> {
  const [row] = await db.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts a LEFT JOIN companies c ON c.id = a.company_id
      WHERE a.id = $1 AND ($2::int IS NULL OR a.company_id = $2)`, [id, scope]);
  return row ?? null;
}

function refuse(errors: Record<string, string | undefined>): void {
  const [field, message] = Object.entries(errors).find(([, m]) => m) ?? [];
  if (field) throw new DomainError('invalid', message!, field);
}

/** An account's record without its lists, as the audit log keeps it. */
const recordOf = (a: AccountRow): AccountRecord => ({
  name: a.name, address: a.address, billing_email: a.billing_email, vat_number: a.vat_number, terms_days: a.terms_days,
  credit_limit_pence: a.credit_limit_pence, status: a.status, status_reason: a.status_reason, company_id: a.company_id,
});

/**
 * Adds an account, or changes the one with `id` (within the viewer's scope: another company's is not found). A
 * company's staff keep their own company's accounts only. Answers the record and what it was (null for a new one).
 */
export async function saveAccount(db: Queryable, scope: Scope, id: number | null, input: Loose<AccountInput>) {
  refuse(accountErrors(input));
  const a = accountRecord(input);
  if (scope !== null) {
    if (a.company_id !== null && a.company_id !== scope) throw new DomainError('invalid', "You can only keep your own company's accounts.", 'company_id');
    a.company_id = scope;
  } else if (a.company_id !== null) {
    const [company] = await db.query('SELECT id FROM companies WHERE id = $1', [a.company_id]);
    if (!company) throw new DomainError('invalid', 'Choose a company from the list, or none.', 'company_id');
  }
  const found = id === null ? null : await accountById(db, scope, id);
  if (id !== null && !found) throw new DomainError('notFound', 'No such account on your record.');
  // The operator carries an account's debt: its credit limit, payment terms and whether it may book on account are the
  // office's. A company's staff keep its details, fields and bookers; a new account of theirs may book on account once
  // the office gives it a limit.
  if (scope !== null) {
    a.credit_limit_pence = found?.credit_limit_pence ?? 0;
    a.terms_days = found?.terms_days ?? 30;
    a.status = found?.status ?? 'active';
    a.status_reason = found?.status_reason ?? '';
  }
  const values = [a.name, a.address, a.billing_email, a.vat_number, a.terms_days, a.credit_limit_pence, a.status, a.status_reason, a.company_id];
  try {
    const [row] = id === null
      ? await db.query<{ id: number }>(
        `INSERT INTO accounts (name, address, billing_email, vat_number, terms_days, credit_limit_pence, status, status_reason, company_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`, values)
      : await db.query<{ id: number }>(
        `UPDATE accounts SET name = $1, address = $2, billing_email = $3, vat_number = $4, terms_days = $5, credit_limit_pence = $6,
                status = $7, status_reason = $8, company_id = $9 WHERE id = $10 RETURNING id`, [...values, id]);
    return { id: row.id, account: a, before: found && recordOf(found) };
  } catch (err) {
    const e = err as { code?: string };
    if (e.code === '23505') throw new DomainError('invalid', 'An account with this name is already on the record.', 'name');
    throw err;
  }
}

/**
 * Adds a booking field to an account, or changes the one with `fieldId`; answers the field as written and before. Run
 * in a transaction: the account's row is locked first, so two fields added at once take turns on the cap.
 */
export async function saveField(db: Queryable, scope: Scope, accountId: number, fieldId: number | null, input: Loose<FieldInput>) {
  refuse(fieldErrors(input));
  const f = fieldRecord(input);
  // Only an account within the viewer's scope is locked (another company's is not found below).
  await db.query('SELECT id FROM accounts WHERE id = $1 AND ($2::int IS NULL OR company_id = $2) FOR UPDATE', [accountId, scope]);
  const account = await accountById(db, scope, accountId);
  if (!account) throw new DomainError('notFound', 'No such account on your record.');
  const before = fieldId === null ? null : account.fields.find((x) => x.id === fieldId) ?? null;
  if (fieldId !== null && !before) throw new DomainError('notFound', 'This field is not on the account: reload the page.');
  if (f.active && !before?.active && account.fields.filter((x) => x.active).length >= MAX_FIELDS) {
    throw new DomainError('invalid', `An account asks for at most ${MAX_FIELDS} fields.`, 'label');
  }
  try {
    if (fieldId === null) {
      await db.query(
        `INSERT INTO account_fields (account_id, label, required, options, active, position)
         VALUES ($1, $2, $3, $4, $5, (SELECT coalesce(max(position), 0) + 1 FROM account_fields WHERE account_id = $1))`,
        [accountId, f.label, f.required, JSON.stringify(f.options), f.active]);
    } else {
      await db.query('UPDATE account_fields SET label = $1, required = $2, options = $3, active = $4 WHERE id = $5 AND account_id = $6',
        [f.label, f.required, JSON.stringify(f.options), f.active, fieldId, accountId]);
    }
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new DomainError('invalid', 'The account has a field of this name already.', 'label');
    throw err;
  }
  return { account, field: f, before };
}

/**
 * Makes the passenger with a sign-in at `email` a booker of the account, or (`join` false) no longer one. A booker
 * of another account is moved only by naming them again here (the answer says from which).
 */
export async function setBooker(db: Queryable, scope: Scope, accountId: number, email: string, join: boolean) {
  const account = await accountById(db, scope, accountId);
  if (!account) throw new DomainError('notFound', 'No such account on your record.');
  const key = emailKey(email);
  if (!key) throw new DomainError('invalid', "Enter the booker's e-mail address.", 'email');
  const [p] = await db.query<{ id: number; name: string; account_id: number | null }>(
    'SELECT id, name, account_id FROM passengers WHERE lower(email) = $1 AND password_hash IS NOT NULL', [key]);
  // A company's staff learn nothing of a passenger who is not their booker (whether the address has a sign-in, their
  // name, another account): one answer for every such address.
  const notOurs = 'No booker can be added or removed with this e-mail. They need a sign-in (Sign In > Create an account); one who books for another account is moved by the office.';
  if (!p) {
    throw new DomainError('invalid', scope !== null ? notOurs : 'Nobody has a sign-in with this e-mail. Ask them to create one (Sign In > Create an account) first.', 'email');
  }
  if (!join && p.account_id !== accountId) throw new DomainError('invalid', scope !== null ? notOurs : `${p.name} is not a booker of ${account.name}.`, 'email');
  // A company's staff never take a booker from an account that is not theirs (the office may move one).
  if (join && scope !== null && p.account_id !== null && p.account_id !== accountId && !(await accountById(db, scope, p.account_id))) {
    throw new DomainError('invalid', notOurs, 'email');
  }
  await db.query('UPDATE passengers SET account_id = $1 WHERE id = $2', [join ? accountId : null, p.id]);
  return { account, passenger: p };
}

/**
 * The account a signed-in passenger books for, with its active fields and what it owes; null when they belong to none.
 * With `lock` (inside the booking's transaction) the account's row is locked first, in a statement of its own, so what
 * it owes is read after any booking on account before it committed: two bookings at once take turns on the limit.
 */
export async function accountOfBooker(db: Queryable, passengerId: number, lock = false) {
  if (lock) await db.query('SELECT a.id FROM passengers p JOIN accounts a ON a.id = p.account_id WHERE p.id = $1 FOR UPDATE OF a', [passengerId]);
  const [row] = await db.query<AccountRecord & { id: number; exposure_pence: number; fields: AccountField[] }>(
    `SELECT a.id, a.name, a.billing_email, a.status, a.status_reason, a.credit_limit_pence, a.terms_days,
            (SELECT coalesce(json_agg(json_build_object('id', f.id, 'label', f.label, 'required', f.required, 'options', f.options)
                             ORDER BY f.position, f.id), '[]') FROM account_fields f WHERE f.account_id = a.id AND f.active) AS fields,
            ${EXPOSURE_SQL} AS exposure_pence
       FROM passengers p JOIN accounts a ON a.id = p.account_id WHERE p.id = $1`, [passengerId]);
  return row ?? null;
}
