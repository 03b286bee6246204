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

export async function profileOf(db: Queryable, passengerId: number): Promise<PassengerProfile> {
  const [p] = await db.query<PassengerProfile>(
    `SELECT id AS passenger_id, name AS passenger_name, email AS passenger_email, phone AS passenger_contact_no
       FROM passengers WHERE id = $1`, [passengerId]);
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
      const changed = await tx.query('UPDATE passengers SET name = $2, email = $3, phone = $4 WHERE id = $1 AND email = $5 RETURNING id',
        [r.passengerId, p.name.trim(), p.email.trim(), p.phone.trim(), oldEmail]);
      if (!changed.length) throw new DomainError('conflict', 'Your account was changed at the same moment elsewhere. Please reload the page and try again.');
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

/** The passenger's bookings, newest first, each with its details, stops and passenger, in one query. */
export async function bookingsOf(db: Queryable, passengerId: number): Promise<CorporateBooking[]> {
  const rows = await db.query<Omit<CorporateBooking, 'total_booking_amount'> & { total_booking_amount_pence: number }>(
    `SELECT b.id, b.booking_number, b.ride_type, b.pick_up_address, b.drop_off_address,
            to_char(b.pick_up_date, 'YYYY-MM-DD') AS pick_up_date, b.pick_up_time,
            to_char(b.return_date, 'YYYY-MM-DD') AS return_date, b.return_time, b.hourly_duration, b.payment_method,
            b.total_booking_amount_pence, b.flight_no, b.return_flight_no, c.company_name,
            jsonb_build_object('category_name', v.category_name) AS fleet_category,
            jsonb_build_object('meet_and_greet', d.meet_and_greet, 'baby_seat', d.baby_seat, 'booster_seat', d.booster_seat,
              'wheel_chair', d.wheel_chair, 'special_luggages', d.special_luggages, 'waiting_minutes', d.waiting_minutes,
              'luggages', d.luggages, 'hand_luggages', d.hand_luggages, 'vehicle_qty', d.vehicle_qty) AS booking_details,
            COALESCE((SELECT jsonb_agg(jsonb_build_object('id', s.id, 'stop_address', s.stop_address,
                        'stop_post_code', s.stop_post_code, 'stop_street_number', s.stop_street_number) ORDER BY s.leg DESC, s.position)
                        FROM booking_stops s WHERE s.booking_id = b.id), '[]'::jsonb) AS booking_stops,
            jsonb_build_object('passenger_id', p.passenger_id, 'passenger_name', p.passenger_name,
              'passenger_email', p.passenger_email, 'passenger_contact_no', p.passenger_contact_no,
              'total_passengers', p.total_passengers, 'additional_info', p.additional_info) AS passenger_detail
       FROM bookings b
       JOIN companies c ON c.id = b.company_id
       JOIN vehicle_types v ON v.id = b.vehicle_type_id
       JOIN booking_details d ON d.booking_id = b.id
       JOIN booking_passengers p ON p.booking_id = b.id
      WHERE b.passenger_id = $1 AND b.status = 'confirmed' -- a card booking whose payment has not succeeded is not a booking yet
      ORDER BY b.created_at DESC, b.id DESC
      LIMIT 500`, [passengerId]);
  return rows.map(({ total_booking_amount_pence, ...b }) => ({ ...b, total_booking_amount: penceToPounds(total_booking_amount_pence) }));
}
