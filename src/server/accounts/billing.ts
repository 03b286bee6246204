// Paying on account (issue 44 §2, decision 62): a signed-in booker of an active account books without a card, the
// account's required fields filled, while what the account owes and has booked stays within its credit limit. Checked
// once before the booking is priced (a clear refusal, nothing written) and again inside the booking's transaction with
// the account's row locked, so two bookings at once cannot both pass the limit.
import type { Queryable } from '../db/index';
import { DomainError } from '../errors';
import {
  accountRefusal, bookingFieldErrors, bookingFieldValues, creditRefusal, type AccountBilling,
} from '../../domain/accounts';
import { officeAccountRefusal } from '../../domain/phoneBookings';
import type { Settings } from '../../domain/settings';
import { EXPOSURE_SQL, accountOfBooker } from './store';

const officePhone = (settings: Settings) => settings.Company_Contact_Info?.trim() ?? '';

/** What a booker's payment step is told of their account (GET /account/billing): null when they belong to none. */
export async function billingOf(db: Queryable, passengerId: number): Promise<AccountBilling | null> {
  const a = await accountOfBooker(db, passengerId);
  return a && { name: a.name, status: a.status, reason: a.status_reason, fields: a.fields };
}

export interface OnAccount { id: number; name: string; fields: { label: string; value: string }[] }

/**
 * The account a booking paid on account is billed to, and its fields' values as the booking keeps them; refused (422)
 * for a guest, a passenger of no account, a suspended or closed account, or a field that is missing or not allowed
 * (naming `account_fields.<field id>`). `office`: the office books for the booker (a missing field is the account's to
 * ask, not "your company's").
 */
export async function accountForBooking(
  db: Queryable, signedIn: number | null, values: Record<string, unknown> | undefined, settings: Settings, office = false,
): Promise<OnAccount> {
  const a = signedIn === null ? null : await accountOfBooker(db, signedIn);
  const held = a && { name: a.name, status: a.status, reason: a.status_reason };
  if (office) {
    const refusal = officeAccountRefusal(held);
    if (refusal) throw new DomainError('invalid', refusal, 'payment');
  }
  if (!a) throw new DomainError('invalid', "Paying on account is for a company's bookers: please sign in, or choose another way to pay.", 'payment_method');
  const refusal = accountRefusal(held!, officePhone(settings));
  if (refusal) throw new DomainError('invalid', refusal, 'payment_method');
  const errors = bookingFieldErrors(a.fields, values ?? {}, office ? a.name : undefined);
  const [id, message] = Object.entries(errors)[0] ?? [];
  if (id) throw new DomainError('invalid', message, `account_fields.${id}`);
  return { id: a.id, name: a.name, fields: bookingFieldValues(a.fields, values ?? {}) };
}

/**
 * Inside the booking's transaction: the booker's account locked, still the one and still active, and the booking
 * within its credit limit (what it owes and has booked, plus this booking). `office`: said to the office, which books
 * for the booker on the telephone (its refusals name the account, and the field is the console's `payment`).
 */
export async function holdCredit(tx: Queryable, passengerId: number, accountId: number, bookingPence: number, settings: Settings, office = false): Promise<void> {
  const field = office ? 'payment' : 'payment_method';
  const a = await accountOfBooker(tx, passengerId, true);
  if (!a || a.id !== accountId) {
    throw new DomainError('conflict', office ? "The passenger's company account changed meanwhile. Please try again." : 'Your company account changed while you were booking. Please try again.', field);
  }
  const held = { name: a.name, status: a.status, reason: a.status_reason };
  const refusal = (office ? officeAccountRefusal(held) : accountRefusal(held, officePhone(settings)))
    ?? creditRefusal(a.credit_limit_pence, a.exposure_pence, bookingPence, office ? { account: a.name } : officePhone(settings));
  if (refusal) throw new DomainError('invalid', refusal, field);
}

/**
 * Inside a change's transaction (the booking's row locked): a journey on account whose price goes up must still fit
 * under its account's credit limit (what the account owes and has booked, this journey at its new price). Nothing
 * for a booking not on account, or a price that does not go up.
 */
export async function holdCreditForChange(tx: Queryable, bookingId: number, oldPence: number, newPence: number, settings: Settings): Promise<void> {
  if (newPence <= oldPence) return;
  const [b] = await tx.query<{ account_id: number | null }>('SELECT account_id FROM bookings WHERE id = $1', [bookingId]);
  if (!b?.account_id) return;
  await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [b.account_id]);
  const [a] = await tx.query<{ name: string; status: 'active' | 'suspended' | 'closed'; status_reason: string; credit_limit_pence: number; exposure_pence: number }>(
    `SELECT a.name, a.status, a.status_reason, a.credit_limit_pence, ${EXPOSURE_SQL} AS exposure_pence FROM accounts a WHERE a.id = $1`, [b.account_id]);
  // A suspended or closed account takes no more on it, a change's higher price included.
  const held = accountRefusal({ name: a.name, status: a.status, reason: a.status_reason }, officePhone(settings));
  if (held) throw new DomainError('invalid', held, 'accept_total');
  const refusal = creditRefusal(a.credit_limit_pence, a.exposure_pence - oldPence, newPence, officePhone(settings));
  if (refusal) throw new DomainError('invalid', refusal.replace('This booking', 'This change'), 'accept_total');
}
