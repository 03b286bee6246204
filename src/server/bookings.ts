// Writing a booking: the server prices it again, stores it in one transaction,
// and answers with SPEC 7's shape. The amount a client sends is never used.
import { randomInt } from 'node:crypto';
import type { Db, Queryable } from './db/index';
import { BookingForm, type BookingRequest, type BookingResult } from '../domain/schemas';
import { penceToPounds } from '../domain/money';
import { toTime24 } from '../domain/ukTime';
import { validateDetails } from '../domain/detailsValidation';
import type { DistanceService } from './geo/distance';
import { HttpError, validate } from './http';
import { quoteDistance } from './pricing/quote';

const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A reference a person can read over the phone: no 0/O or 1/I. */
export function newBookingNumber(): string {
  let ref = '';
  for (let i = 0; i < 8; i++) ref += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return `BK-${ref}`;
}

function checkRegistration(req: BookingRequest): void {
  if (req.selected_passenger !== 'guest_login') {
    throw new HttpError(422, 'selected_passenger: only guest bookings are taken at the moment', 'selected_passenger');
  }
  const errors = validateDetails(req.selected_passenger, req.registrationData);
  const [field, message] = Object.entries(errors)[0] ?? [];
  if (field) throw new HttpError(422, `registrationData.${field}: ${message}`, `registrationData.${field}`);
}

export interface BookingDeps { db: Db; distance: DistanceService; currency: string }

export async function createBooking(deps: BookingDeps, req: BookingRequest, idempotencyKey: string | null): Promise<BookingResult> {
  if (idempotencyKey) {
    const existing = await findByIdempotencyKey(deps.db, idempotencyKey);
    if (existing) return existing;
  }
  if (req.bookingType !== 'milleage') {
    throw new HttpError(422, 'bookingType: hourly hire is not offered by this operator', 'bookingType');
  }
  if (req.payment_method !== 'car') {
    throw new HttpError(422, 'payment_method: card payments are not available yet; choose Pay In Car', 'payment_method');
  }
  const form = validate(req.bookingForm, BookingForm, 'bookingForm');
  checkRegistration(req);
  const quote = await quoteDistance(deps.db, deps.distance, form, deps.currency);
  const chosen = quote.offers.find(
    (o) => o.offer.vehicle_id === req.selectedVehicleData.vehicle_id && o.offer.company_id === req.selectedVehicleData.company_id,
  );
  if (!chosen) throw new HttpError(422, 'selectedVehicleData: this vehicle is not offered for this trip', 'selectedVehicleData');
  const quantity = req.selectedVehicle;
  const reg = req.registrationData;
  const isReturn = form.select_option === 'return';

  let id: number;
  try {
    id = await deps.db.transaction(async (tx) => {
      const [passenger] = await tx.query<{ id: number }>(
        'INSERT INTO passengers (name, email, phone) VALUES ($1, $2, $3) RETURNING id',
        [`${reg.firstName} ${reg.surname}`.trim(), reg.email.trim(), reg.number.trim()],
      );
      const row = await insertBooking(tx, {
        idempotencyKey, rideType: 'Q', bookingType: req.bookingType, companyId: chosen.offer.company_id,
        vehicleTypeId: chosen.offer.vehicle_id, passengerId: passenger.id, mode: req.selected_passenger,
        pickup: form.pickup, dropoff: form.dropoff, date: form.pickup_date, time: toTime24(form.pickup_hour, form.pickup_min),
        returnDate: isReturn ? form.return_date : null,
        returnTime: isReturn ? toTime24(form.return_hour, form.return_min) : null,
        flightNo: form.pickup_fight_number || null, returnFlightNo: isReturn ? form.return_fight_number || null : null,
        miles: quote.route.miles + quote.route.returnMiles, seconds: quote.route.seconds + quote.route.returnSeconds,
        quantity, unitPence: chosen.unitPence, totalPence: chosen.unitPence * quantity,
        breakdown: chosen.detail.breakdown, paymentMethod: 'car', paymentStatus: 'due_in_car',
    });
    if (!row) throw new KeyAlreadyUsed(); // a concurrent request with the same key won: roll this one back
    await tx.query(
      `INSERT INTO booking_details (booking_id, meet_and_greet, baby_seat, booster_seat, wheel_chair, special_luggages,
         waiting_minutes, luggages, hand_luggages, vehicle_qty, return_options)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [row, form.meet_and_greet, form.baby_seats, form.booster_seats, form.wheel_chair, form.special_luggage,
        form.waiting_min, form.luggages, form.hand_luggages, quantity,
        isReturn ? JSON.stringify(returnOptions(form)) : null],
    );
    for (const [i, s] of form.stops.entries()) {
      await tx.query(
        `INSERT INTO booking_stops (booking_id, leg, position, stop_address, stop_post_code, stop_street_number)
         VALUES ($1, 'outbound', $2, $3, $4, $5)`,
        [row, i, s.street_name, s.postcode, s.number],
      );
    }
    const others = reg.passengerDetails === 'yes';
    await tx.query(
      `INSERT INTO booking_passengers (booking_id, passenger_id, passenger_name, passenger_email, passenger_contact_no,
         total_passengers, additional_info) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [row, passenger.id,
        others ? `${reg.passengerName ?? ''} ${reg.passengerLastname ?? ''}`.trim() : `${reg.firstName} ${reg.surname}`.trim(),
        others ? reg.passengerEmail ?? '' : reg.email, others ? reg.passengerPhone ?? '' : reg.number,
        form.passengers, reg.additionalInfo],
    );
    return row;
    });
  } catch (err) {
    if (err instanceof KeyAlreadyUsed) return (await findByIdempotencyKey(deps.db, idempotencyKey!))!;
    throw err;
  }
  const result = await loadBooking(deps.db, id);
  if (!result) throw new Error('The booking was written but could not be read back');
  return result;
}

class KeyAlreadyUsed extends Error {}

function returnOptions(form: BookingForm) {
  return {
    passengers: form.return_passengers, luggages: form.return_luggages, hand_luggages: form.return_hand_luggages,
    meet_and_greet: form.return_meet_and_greet, baby_seats: form.return_baby_seats, booster_seats: form.return_booster_seats,
    wheel_chair: form.return_wheel_chair, special_luggage: form.return_special_luggage, waiting_min: form.return_waiting_min,
  };
}

interface NewBooking {
  idempotencyKey: string | null; rideType: string; bookingType: string; companyId: number; vehicleTypeId: number;
  passengerId: number | null; mode: string; pickup: string; dropoff: string | null; date: string; time: string;
  returnDate: string | null; returnTime: string | null; flightNo: string | null; returnFlightNo: string | null;
  miles: number; seconds: number; quantity: number; unitPence: number; totalPence: number; breakdown: unknown;
  paymentMethod: 'car' | 'card'; paymentStatus: string;
}

/** Inserts the booking row; null when another request already used the idempotency key. */
async function insertBooking(tx: Queryable, b: NewBooking): Promise<number | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const rows = await tx.query<{ id: number }>(
      `INSERT INTO bookings (booking_number, idempotency_key, ride_type, booking_type, company_id, vehicle_type_id,
         passenger_id, registration_mode, pick_up_address, drop_off_address, pick_up_date, pick_up_time, return_date,
         return_time, flight_no, return_flight_no, via_miles, time_duration, vehicle_qty, unit_price_pence,
         total_booking_amount_pence, price_breakdown, payment_method, payment_status)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24
        WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE booking_number = $1)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING id`,
      [newBookingNumber(), b.idempotencyKey, b.rideType, b.bookingType, b.companyId, b.vehicleTypeId, b.passengerId,
        b.mode, b.pickup, b.dropoff, b.date, b.time, b.returnDate, b.returnTime, b.flightNo, b.returnFlightNo,
        b.miles, b.seconds, b.quantity, b.unitPence, b.totalPence, JSON.stringify(b.breakdown), b.paymentMethod,
        b.paymentStatus],
    );
    if (rows.length) return rows[0].id;
    if (b.idempotencyKey) {
      const taken = await tx.query('SELECT 1 FROM bookings WHERE idempotency_key = $1', [b.idempotencyKey]);
      if (taken.length) return null;
    }
  }
  throw new Error('Could not allocate a booking number');
}

async function findByIdempotencyKey(db: Queryable, key: string): Promise<BookingResult | null> {
  const [row] = await db.query<{ id: number }>('SELECT id FROM bookings WHERE idempotency_key = $1', [key]);
  return row ? loadBooking(db, row.id) : null;
}

export async function loadBooking(db: Queryable, id: number): Promise<BookingResult | null> {
  const [b] = await db.query<Record<string, unknown>>(
    `SELECT b.id, b.booking_number, b.ride_type, b.pick_up_address, b.drop_off_address,
            to_char(b.pick_up_date, 'YYYY-MM-DD') AS pick_up_date, b.pick_up_time,
            to_char(b.return_date, 'YYYY-MM-DD') AS return_date, b.return_time, b.hourly_duration, b.payment_method,
            b.total_booking_amount_pence, b.flight_no, b.return_flight_no, c.company_name, v.category_name
       FROM bookings b JOIN companies c ON c.id = b.company_id JOIN vehicle_types v ON v.id = b.vehicle_type_id
      WHERE b.id = $1`,
    [id],
  );
  if (!b) return null;
  const [detail] = await db.query<BookingResult['bookingDetail']>(
    `SELECT meet_and_greet, baby_seat, booster_seat, wheel_chair, special_luggages, waiting_minutes, luggages,
            hand_luggages, vehicle_qty FROM booking_details WHERE booking_id = $1`, [id],
  );
  const stops = await db.query<BookingResult['bookingStops'][number]>(
    `SELECT id, stop_address, stop_post_code, stop_street_number FROM booking_stops
      WHERE booking_id = $1 ORDER BY leg DESC, position`, [id],
  );
  const [passenger] = await db.query<BookingResult['passengerDetails']>(
    `SELECT passenger_id, passenger_name, passenger_email, passenger_contact_no, total_passengers, additional_info
       FROM booking_passengers WHERE booking_id = $1`, [id],
  );
  const { total_booking_amount_pence, category_name, ...booking } = b;
  return {
    booking: {
      ...(booking as Omit<BookingResult['booking'], 'total_booking_amount' | 'fleet_category'>),
      total_booking_amount: penceToPounds(total_booking_amount_pence as number),
      fleet_category: { category_name: category_name as string },
    },
    bookingDetail: detail,
    bookingStops: stops,
    passengerDetails: passenger,
  };
}
