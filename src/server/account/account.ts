// The corporate account: a passenger's profile and bookings. Every function
// takes the passenger id of the signed-in token, never one a request names.
import type { Db, Queryable } from '../db/index';
import type { Settings } from '../../domain/settings';
import { emailKey } from '../../domain/fields';
import { signIn } from '../auth/passengers';
import { revokeOtherTokens } from '../auth/tokens';
import { enqueueEmail } from '../mail/queue';
import { emailChangedMail } from '../mail/templates';
import { penceToPounds } from '../../domain/money';
import type { CorporateBooking, PassengerProfile } from '../../domain/schemas';
import { CURRENT_PASSWORD_NEEDED, CURRENT_PASSWORD_WRONG, EMAIL_TAKEN } from '../../domain/messages';
import { DomainError } from '../errors';
import { changePassenger, confirmedBookingsOf, passengerProfile } from './queries';

export async function profileOf(db: Queryable, passengerId: number): Promise<PassengerProfile> {
  const p = await passengerProfile(db, passengerId);
  if (!p) throw new DomainError('notFound', 'This account no longer exists.');
  return p;
}

export interface ProfileChange { name: string; email: string; phone: string; current_password?: string }

/** Who asks for the change: the token it came with (kept signed in), the client address and hash cost for the password check. */
export interface ProfileRequest { db: Db; passengerId: number; token: string; client: string; hashCost: number; settings: Settings }

/**
 * Name, e-mail and phone only; an e-mail another account uses is refused (the unique index decides, not a look-up).
 * A new e-mail needs the current password (a counted sign-in): a token alone, stolen or left on a shared device, must
 * not be enough to move the account to another address and then reset its password there. The old address is told,
 * and every other token of the passenger is revoked, in the same transaction as the change.
 */
export async function updateProfile(r: ProfileRequest, p: ProfileChange): Promise<PassengerProfile> {
  const current = await profileOf(r.db, r.passengerId);
  const oldEmail = current.passenger_email;
  const emailChanges = emailKey(oldEmail) !== emailKey(p.email);
  if (emailChanges) {
    if (!p.current_password) throw new DomainError('invalid', CURRENT_PASSWORD_NEEDED, 'current_password');
    const check = await signIn(r.db, { email: oldEmail, password: p.current_password, client: r.client, hashCost: r.hashCost });
    if (!check.ok || check.account.id !== r.passengerId) throw new DomainError('invalid', CURRENT_PASSWORD_WRONG, 'current_password');
  }
  try {
    await r.db.transaction(async (tx) => {
      // Only from the e-mail the password was checked for: a change made meanwhile is not overwritten unseen.
      const changed = await changePassenger(tx, r.passengerId, { name: p.name.trim(), email: p.email.trim(), phone: p.phone.trim() }, oldEmail);
      if (!changed) throw new DomainError('conflict', 'Your account was changed at the same moment elsewhere. Please reload the page and try again.');
      if (!emailChanges) return;
      await revokeOtherTokens(tx, r.passengerId, r.token);
      await enqueueEmail(tx, { kind: 'email_changed', to: oldEmail, ...emailChangedMail(oldEmail, p.email.trim(), r.settings) });
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new DomainError('invalid', EMAIL_TAKEN, 'email');
    throw err;
  }
  return profileOf(r.db, r.passengerId);
}

/** The passenger's bookings, newest first (a card booking whose payment has not succeeded is not a booking yet). */
export async function bookingsOf(db: Queryable, passengerId: number): Promise<CorporateBooking[]> {
  const rows = await confirmedBookingsOf(db, passengerId);
  return rows.map(({ total_booking_amount_pence, ...b }) => ({ ...b, total_booking_amount: penceToPounds(total_booking_amount_pence) }));
}
