// The corporate account's SQL: a passenger's profile, its change, and its confirmed bookings.
import type { Queryable } from '../db/index';
import type { CorporateBooking, PassengerProfile } from '../../domain/schemas';

export async function passengerProfile(db: Queryable, passengerId: number): Promise<PassengerProfile | undefined> {
  const [p] = await db.query<PassengerProfile>(
    `SELECT id AS passenger_id, name AS passenger_name, email AS passenger_email, phone AS passenger_contact_no
       FROM passengers WHERE id = $1`, [passengerId]);
  return p;
}

/** Name, e-mail and phone, only while the e-mail is still `oldEmail`; whether it was changed. */
export async function changePassenger(
  tx: Queryable, passengerId: number, p: { name: string; email: string; phone: string }, oldEmail: string,
): Promise<boolean> {
  const changed = await tx.query('UPDATE passengers SET name = $2, email = $3, phone = $4 WHERE id = $1 AND email = $5 RETURNING id',
    [passengerId, p.name, p.email, p.phone, oldEmail]);
  return changed.length > 0;
}

/** The passenger's confirmed bookings, newest first, each with its details, stops and passenger, in one query. */
export function confirmedBookingsOf(db: Queryable, passengerId: number) {
  return db.query<Omit<CorporateBooking, 'total_booking_amount'> & { total_booking_amount_pence: number }>(
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
}
