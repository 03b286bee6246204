// Writing a booking: the server prices it again, stores it with its
// confirmation e-mail in one transaction, and answers with SPEC 7's shape.
// The amount a client sends is never used.
import { createHmac, randomInt } from 'node:crypto';
import type { Db, Queryable } from '../db/index';
import {
  BookingForm, HourlyRateForm, type BookingRequest, type BookingResult,
} from '../../domain/schemas';
import { penceToPounds } from '../../domain/money';
import { allowsGuests, isEnabled, showsPayInCar } from '../../domain/settings';
import { toTime24 } from '../../domain/ukTime';
import { validateDetails } from '../../domain/detailsValidation';
import { BOOKING_REFERENCE_ALPHABET } from '../../domain/bookingReference';
import { isPhone, normalisePhone, PHONE_MESSAGE } from '../../domain/phone';
import { HttpError, validate } from '../http/errors';
import { quoteDistance, quoteHourly, type PricedOffer, type QuoteContext } from '../pricing/quote';
import { UnknownPlaceError } from '../geo/places';
import { createPassenger, signIn } from '../auth/passengers';
import { hashPassword } from '../auth/passwords';
import { profileOf } from '../auth/account';
import { enqueueEmail } from '../mail/queue';
import { bookingConfirmation } from '../mail/templates';

/** A reference a person can read over the phone: no 0/O or 1/I (src/domain/bookingReference.ts, which the contact form checks too). */
export function newBookingNumber(): string {
  let ref = '';
  for (let i = 0; i < 8; i++) ref += BOOKING_REFERENCE_ALPHABET[randomInt(BOOKING_REFERENCE_ALPHABET.length)];
  return `BK-${ref}`;
}

export const BAD_CREDENTIALS = 'The email or password is not correct.';

interface Contact {
  passengerId: number | null; name: string; email: string; phone: string; passwordHash: string | null;
  /** Booking for someone else: their phone as stored, '' when not given. */
  passengerPhone: string;
}

/** A phone of the request as stored (E.164, decision 20), '' when none is given; a bad one is a 422 naming its field. */
function storedPhone(text: string | undefined, field: string): string {
  if (!text?.trim()) return '';
  const e164 = normalisePhone(text);
  if (e164 === null) throw new HttpError(422, `${field}: ${PHONE_MESSAGE}`, field);
  return e164;
}

/** Who the booking is for, by registration mode (SPEC 4): checked before anything is written. */
async function resolveContact(deps: BookingDeps, req: BookingRequest): Promise<Contact> {
  const mode = req.selected_passenger;
  const reg = req.registrationData;
  if (deps.signedIn === null) {
    const errors = validateDetails(mode, reg, isPhone);
    const [field, message] = Object.entries(errors)[0] ?? [];
    if (field) throw new HttpError(422, `registrationData.${field}: ${message}`, `registrationData.${field}`);
  }
  // Every phone given is checked, whatever the mode (an existing client's form has none: the account's is used).
  const phone = storedPhone(reg.number, 'registrationData.number');
  const passengerPhone = reg.passengerDetails === 'yes' ? storedPhone(reg.passengerPhone, 'registrationData.passengerPhone') : '';
  if (deps.signedIn !== null) {
    // A signed-in corporate passenger books for their own account: what the form gives, else the profile.
    const p = await profileOf(deps.db, deps.signedIn);
    const name = `${reg.firstName} ${reg.surname}`.trim() || p.passenger_name;
    return {
      passengerId: p.passenger_id, name, email: reg.email || p.passenger_email, phone: phone || p.passenger_contact_no, passwordHash: null,
      passengerPhone,
    };
  }
  const name = `${reg.firstName} ${reg.surname}`.trim();
  if (mode === 'existing_client') {
    const result = await signIn(deps.db, { email: reg.email, password: reg.password ?? '', client: deps.client, hashCost: deps.hashCost });
    if (!result.ok) throw new HttpError(422, BAD_CREDENTIALS, 'registrationData.password');
    const a = result.account;
    return { passengerId: a.id, name: name || a.name, email: a.email, phone: phone || a.phone, passwordHash: null, passengerPhone };
  }
  // A new client's e-mail is checked when the account is written (createPassenger), inside the booking's transaction.
  const passwordHash = mode === 'new_client' ? await hashPassword(reg.password ?? '', deps.hashCost) : null;
  return { passengerId: null, name, email: reg.email.trim(), phone, passwordHash, passengerPhone };
}

function chosenOffer(offers: PricedOffer[], req: BookingRequest): PricedOffer {
  const chosen = offers.find(
    (o) => o.offer.vehicle_id === req.selectedVehicleData.vehicle_id && o.offer.company_id === req.selectedVehicleData.company_id,
  );
  if (!chosen) throw new HttpError(422, 'selectedVehicleData: this vehicle is not offered for this trip', 'selectedVehicleData');
  // SPEC 2: a vehicle offered without a price is booked through Contact Us, never online at £0.
  if (chosen.unitPence <= 0) {
    throw new HttpError(422, 'This vehicle has no online price for this trip. Please ask us for a quote.', 'selectedVehicleData');
  }
  return chosen;
}

export interface BookingDeps {
  db: Db; ctx: QuoteContext;
  /** Client address, for the sign-in limits of existing clients. */
  client: string;
  /** The passenger of the request's bearer token, when a corporate passenger is signed in. */
  signedIn: number | null;
  hashCost: number;
  /** HMAC key for the request hashes kept with idempotency keys. */
  secret: Buffer;
}

export const KEY_REUSED = 'This booking was already submitted with different details (the Idempotency-Key was used before). Check your e-mail for its confirmation, or start a new booking.';

/**
 * What identifies a booking request for its Idempotency-Key: an HMAC of the
 * request with its keys in a fixed order, leaving out the password (the same
 * retry may carry it, and its hash must not sit in the database).
 */
export function requestHash(req: BookingRequest, secret: Buffer): string {
  const { password: _password, ...registrationData } = req.registrationData;
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical)
      : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]))
        : v;
  return createHmac('sha256', secret).update(JSON.stringify(canonical({ ...req, registrationData }))).digest('base64url');
}

/** The trip as it will be stored, for either booking type. */
interface Trip {
  rideType: 'Q' | 'H'; chosen: PricedOffer; pickupAt: Date; pickup: string; dropoff: string | null; date: string; time: string;
  returnDate: string | null; returnTime: string | null; hourlyDuration: string | null; flightNo: string | null;
  returnFlightNo: string | null; miles: number | null; returnMiles: number | null; seconds: number | null;
  details: { meet_and_greet: string; baby_seat: number; booster_seat: number; wheel_chair: string; special_luggages: number;
    waiting_minutes: number; luggages: number; hand_luggages: number; return_options: unknown; passengers: number };
  stops: BookingForm['stops'];
}

/** The quote's refusals name fields inside the form the booking carries: 'bookingForm.pickup', 'hourlyRateForm.pickup'. */
async function inForm<T>(prefix: 'bookingForm' | 'hourlyRateForm', quote: Promise<T>): Promise<T> {
  try {
    return await quote;
  } catch (err) {
    if (err instanceof UnknownPlaceError) throw new HttpError(422, err.message, `${prefix}.${err.field}`);
    if (err instanceof HttpError && err.field) throw new HttpError(err.status, err.message, `${prefix}.${err.field}`, err.headers);
    throw err;
  }
}

async function priceTrip(ctx: QuoteContext, req: BookingRequest): Promise<Trip> {
  if (req.bookingType === 'milleage') {
    const form = validate(req.bookingForm, BookingForm, 'bookingForm');
    const quote = await inForm('bookingForm', quoteDistance(ctx, form));
    const isReturn = form.select_option === 'return';
    return {
      rideType: 'Q', chosen: chosenOffer(quote.offers, req), pickupAt: quote.pickupAt, pickup: form.pickup, dropoff: form.dropoff,
      date: form.pickup_date, time: toTime24(form.pickup_hour, form.pickup_min),
      returnDate: isReturn ? form.return_date : null, returnTime: isReturn ? toTime24(form.return_hour, form.return_min) : null,
      hourlyDuration: null, flightNo: form.pickup_fight_number || null,
      returnFlightNo: isReturn ? form.return_fight_number || null : null,
      miles: quote.route.miles, returnMiles: isReturn ? quote.route.returnMiles : null, seconds: quote.route.seconds,
      details: {
        meet_and_greet: form.meet_and_greet, baby_seat: form.baby_seats, booster_seat: form.booster_seats,
        wheel_chair: form.wheel_chair, special_luggages: form.special_luggage, waiting_minutes: form.waiting_min,
        luggages: form.luggages, hand_luggages: form.hand_luggages, passengers: form.passengers,
        return_options: isReturn ? {
          passengers: form.return_passengers, luggages: form.return_luggages, hand_luggages: form.return_hand_luggages,
          meet_and_greet: form.return_meet_and_greet, baby_seats: form.return_baby_seats, booster_seats: form.return_booster_seats,
          wheel_chair: form.return_wheel_chair, special_luggage: form.return_special_luggage, waiting_min: form.return_waiting_min,
        } : null,
      },
      stops: form.stops,
    };
  }
  if (!isEnabled(ctx.settings, 'HOURLY_RATE_STATUS')) {
    throw new HttpError(422, 'Hourly hire is not offered at the moment.', 'bookingType');
  }
  const form = validate(req.hourlyRateForm, HourlyRateForm, 'hourlyRateForm');
  const quote = await inForm('hourlyRateForm', quoteHourly(ctx, form));
  return {
    rideType: 'H', chosen: chosenOffer(quote.offers, req), pickupAt: quote.pickupAt, pickup: form.pickup, dropoff: null,
    date: form.pickup_date, time: toTime24(form.pickup_hour, form.pickup_min), returnDate: null, returnTime: null,
    hourlyDuration: form.pickup_duration, flightNo: null, returnFlightNo: null, miles: null, returnMiles: null, seconds: null,
    details: {
      meet_and_greet: 'no', baby_seat: 0, booster_seat: 0, wheel_chair: 'no', special_luggages: 0, waiting_minutes: 0,
      luggages: 0, hand_luggages: 0, passengers: 0, return_options: null,
    },
    stops: [],
  };
}

/** A request checked against the settings, priced by the server, and its passenger known: ready to be written. */
export interface PreparedBooking { req: BookingRequest; trip: Trip; contact: Contact }

/** Everything that can refuse a booking before anything is written (settings, price, passenger). */
export async function prepareBooking(deps: BookingDeps, req: BookingRequest): Promise<PreparedBooking> {
  if (req.selected_passenger === 'guest_login' && deps.signedIn === null && !allowsGuests(deps.ctx.settings)) {
    throw new HttpError(422, 'Booking as a guest is not offered at the moment. Please sign in or create an account.', 'selected_passenger');
  }
  const trip = await priceTrip(deps.ctx, req);
  const contact = await resolveContact(deps, req);
  return { req, trip, contact };
}

/** The booking's total in pence: the server's unit price times the quantity. */
export const totalPence = (p: PreparedBooking) => p.trip.chosen.unitPence * p.req.selectedVehicle;

export async function createBooking(deps: BookingDeps, req: BookingRequest, idempotencyKey: string | null): Promise<BookingResult> {
  const hash = idempotencyKey ? requestHash(req, deps.secret) : '';
  if (idempotencyKey) {
    const existing = await findByIdempotencyKey(deps.db, idempotencyKey, hash);
    if (existing) return existing;
  }
  if (req.payment_method !== 'car') {
    throw new HttpError(422, 'payment_method: a card booking is made by paying on the card page', 'payment_method');
  }
  // The settings the wizard shows by are rules here too: a hidden choice cannot be posted.
  if (!showsPayInCar(deps.ctx.settings)) {
    throw new HttpError(422, 'Paying in the car is not offered at the moment. Please choose another way to pay.', 'payment_method');
  }
  const prepared = await prepareBooking(deps, req);
  try {
    const id = await deps.db.transaction((tx) => writeBooking(tx, deps, prepared, {
      idempotencyKey, hash, status: 'confirmed', paymentMethod: 'car', paymentStatus: 'due_in_car',
    }));
    return (await loadBooking(deps.db, id))!;
  } catch (err) {
    if (err instanceof KeyAlreadyUsed) {
      const first = await findByIdempotencyKey(deps.db, idempotencyKey!, hash);
      if (first) return first;
      throw new HttpError(409, 'Another request with this Idempotency-Key is not finished. Please try again in a moment.', 'Idempotency-Key');
    }
    throw err;
  }
}

export interface WriteOptions {
  idempotencyKey: string | null; hash: string;
  /** 'pending': a card booking waiting for its payment; its confirmation e-mail is held until then. */
  status: 'confirmed' | 'pending';
  paymentMethod: 'car' | 'card'; paymentStatus: 'due_in_car' | 'awaiting_payment';
}

/**
 * Writes the booking with its details, stops, passenger and confirmation e-mail, inside the caller's transaction.
 * The key is claimed first, so a repeated request never reaches the account or the booking. (On PostgreSQL a
 * concurrent claim of the same key waits here until the first one commits; then KeyAlreadyUsed rolls this one back.)
 */
export async function writeBooking(tx: Queryable, deps: BookingDeps, p: PreparedBooking, o: WriteOptions): Promise<number> {
  const { req, trip, contact } = p;
  const quantity = req.selectedVehicle;
  const reg = req.registrationData;
  if (o.idempotencyKey) await claimKey(tx, o.idempotencyKey, o.hash);
  const passengerId = contact.passengerId ?? await createPassenger(tx, contact);
  const row = await insertBooking(tx, {
    idempotencyKey: o.idempotencyKey, trip, passengerId, mode: req.selected_passenger, bookingType: req.bookingType, quantity,
    paymentMethod: o.paymentMethod, paymentStatus: o.paymentStatus, status: o.status,
  });
  const d = trip.details;
  await tx.query(
    `INSERT INTO booking_details (booking_id, meet_and_greet, baby_seat, booster_seat, wheel_chair, special_luggages,
       waiting_minutes, luggages, hand_luggages, vehicle_qty, return_options)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [row, d.meet_and_greet, d.baby_seat, d.booster_seat, d.wheel_chair, d.special_luggages, d.waiting_minutes,
      d.luggages, d.hand_luggages, quantity, d.return_options ? JSON.stringify(d.return_options) : null],
  );
  for (const [i, s] of trip.stops.entries()) {
    await tx.query(
      `INSERT INTO booking_stops (booking_id, leg, position, stop_address, stop_post_code, stop_street_number)
       VALUES ($1, 'outbound', $2, $3, $4, $5)`,
      [row, i, s.street_name, s.postcode, s.number],
    );
  }
  const forSomeoneElse = reg.passengerDetails === 'yes' && Boolean(reg.passengerName?.trim());
  await tx.query(
    `INSERT INTO booking_passengers (booking_id, passenger_id, passenger_name, passenger_email, passenger_contact_no,
       total_passengers, additional_info) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row, passengerId,
      forSomeoneElse ? `${reg.passengerName ?? ''} ${reg.passengerLastname ?? ''}`.trim() : contact.name,
      forSomeoneElse ? reg.passengerEmail || contact.email : contact.email,
      forSomeoneElse ? contact.passengerPhone || contact.phone : contact.phone,
      d.passengers, reg.additionalInfo],
  );
  // The confirmation is written now, with the booking; a card booking's waits ('held') until the payment succeeds.
  const result = (await loadBooking(tx, row))!;
  const mail = bookingConfirmation(result, deps.ctx.settings, trip.chosen.detail.breakdown.lines);
  const recipients = new Set([contact.email, result.passengerDetails.passenger_email].filter(Boolean));
  for (const to of recipients) {
    await enqueueEmail(tx, { kind: 'booking_confirmation', to, bookingId: row, held: o.status === 'pending', ...mail });
  }
  return row;
}

export class KeyAlreadyUsed extends Error {}

async function claimKey(tx: Queryable, key: string, hash: string): Promise<void> {
  const claimed = await tx.query(
    'INSERT INTO idempotency_keys (key, request_hash) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key', [key, hash]);
  if (!claimed.length) throw new KeyAlreadyUsed(); // another request with this key committed first: roll this one back
}

interface NewBooking {
  idempotencyKey: string | null; trip: Trip; passengerId: number; mode: string; bookingType: string; quantity: number;
  paymentMethod: 'car' | 'card'; paymentStatus: string; status: 'confirmed' | 'pending';
}

/** Inserts the booking row under a fresh booking number (drawn again in the unlikely case it is taken). */
async function insertBooking(tx: Queryable, b: NewBooking): Promise<number> {
  const t = b.trip;
  for (let attempt = 0; attempt < 5; attempt++) {
    const rows = await tx.query<{ id: number }>(
      `INSERT INTO bookings (booking_number, idempotency_key, ride_type, booking_type, company_id, vehicle_type_id,
         passenger_id, registration_mode, pick_up_address, drop_off_address, pick_up_date, pick_up_time, return_date,
         return_time, hourly_duration, flight_no, return_flight_no, via_miles, return_via_miles, time_duration,
         vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown, payment_method, payment_status, pickup_at, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28)
       ON CONFLICT (booking_number) DO NOTHING
       RETURNING id`,
      [newBookingNumber(), b.idempotencyKey, t.rideType, b.bookingType, t.chosen.offer.company_id, t.chosen.offer.vehicle_id,
        b.passengerId, b.mode, t.pickup, t.dropoff, t.date, t.time, t.returnDate, t.returnTime, t.hourlyDuration,
        t.flightNo, t.returnFlightNo, t.miles, t.returnMiles, t.seconds, b.quantity, t.chosen.unitPence,
        t.chosen.unitPence * b.quantity, JSON.stringify(t.chosen.detail.breakdown), b.paymentMethod, b.paymentStatus,
        t.pickupAt.toISOString(), b.status],
    );
    if (rows.length) return rows[0].id;
  }
  throw new Error('Could not allocate a booking number');
}

/** The booking a key was used for; 422 when the key came with another request. */
async function findByIdempotencyKey(db: Queryable, key: string, hash: string): Promise<BookingResult | null> {
  const [row] = await db.query<{ id: number | null; request_hash: string }>(
    'SELECT b.id, k.request_hash FROM idempotency_keys k LEFT JOIN bookings b ON b.idempotency_key = k.key WHERE k.key = $1', [key]);
  if (!row) return null;
  if (row.request_hash !== hash) throw new HttpError(422, KEY_REUSED, 'Idempotency-Key');
  return row.id === null ? null : loadBooking(db, row.id);
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

