// Writing a booking: the server prices it again, stores it with its
// confirmation e-mail in one transaction, and answers with SPEC 7's shape.
// The amount a client sends is never used.
import { legExtras, storedExtras, type ExtraDetailKey } from '../../domain/extras';
import { createHmac, randomFillSync } from 'node:crypto';
import type { Db, Queryable } from '../db/index';
import {
  BookingForm, HourlyRateForm, type BookingDetail, type BookingRequest, type BookingResult,
} from '../../domain/schemas';
import { penceToPounds } from '../../domain/money';
import { allowsGuests, isEnabled, showsPayInCar } from '../../domain/settings';
import { toTime24 } from '../../domain/ukTime';
import { validateDetails } from '../../domain/detailsValidation';
import { BOOKING_REFERENCE_ALPHABET } from '../../domain/bookingReference';
import { isPhone, normalisePhone, PHONE_MESSAGE } from '../../domain/phone';
import { DomainError } from '../errors';
import { validate } from '../http/body';
import { quoteDistance, quoteHourly, type PricedOffer, type QuoteContext } from '../pricing/quote';
import { findAccount, signIn } from '../auth/passengers';
import { addressKey, takeAllowance, type Limits, type Use } from '../limits';
import { ACCOUNT_EXISTS } from '../../domain/messages';
import { hashPassword } from '../auth/passwords';
import { profileOf } from '../account/account';
import { bookingConfirmation } from '../mail/templates';

/** A reference a person can read over the phone: no 0/O or 1/I (src/domain/bookingReference.ts, which the contact form checks too). */
export function newBookingNumber(): string {
  const n = BOOKING_REFERENCE_ALPHABET.length;
  // One draw of random bytes (eight randomInt calls were 2% of a booking's CPU); a byte is used only below the
  // largest multiple of the alphabet's length, so every character stays equally likely.
  const limit = 256 - (256 % n);
  let ref = '';
  while (ref.length < 8) {
    const byte = randomByte();
    if (byte < limit) ref += BOOKING_REFERENCE_ALPHABET[byte % n];
  }
  return `BK-${ref}`;
}

/** Random bytes drawn 4 kB at a time (a draw per booking number was 2% of a booking's CPU). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function randomByte(): number {
  if (poolAt >= pool.length) { randomFillSync(pool); poolAt = 0; }
  return pool[poolAt++];
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
  if (e164 === null) throw new DomainError('invalid', `${field}: ${PHONE_MESSAGE}`, field);
  return e164;
}

/** Who the booking is for, by registration mode (SPEC 4): checked before anything is written. */
async function resolveContact(deps: BookingDeps, req: BookingRequest): Promise<Contact> {
  const mode = req.selected_passenger;
  const reg = req.registrationData;
  if (deps.signedIn === null) {
    const errors = validateDetails(mode, reg, isPhone);
    const [field, message] = Object.entries(errors)[0] ?? [];
    if (field) throw new DomainError('invalid', `registrationData.${field}: ${message}`, `registrationData.${field}`);
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
    if (!result.ok) throw new DomainError('invalid', BAD_CREDENTIALS, 'registrationData.password');
    const a = result.account;
    const contact = { passengerId: a.id, name: name || a.name, email: a.email, phone: phone || a.phone, passwordHash: null, passengerPhone };
    await countBookingWithoutSignIn(deps, req, contact.email, 'existing');
    return contact;
  }
  // Counted first (so trying addresses here is limited too), then a new client's e-mail is checked before its
  // password is hashed (SPEC 4 tells a visitor whether an e-mail has an account); the unique index still decides a
  // race (writeAll).
  await countBookingWithoutSignIn(deps, req, reg.email, mode === 'new_client' ? 'new' : 'guest');
  if (mode === 'new_client' && await findAccount(deps.db, reg.email)) throw new DomainError('invalid', ACCOUNT_EXISTS, 'registrationData.email');
  const passwordHash = mode === 'new_client' ? await hashPassword(reg.password ?? '', deps.hashCost) : null;
  return { passengerId: null, name, email: reg.email.trim(), phone, passwordHash, passengerPhone };
}

/** Where a booking's confirmation goes: the booker and, when booking for someone else with an address, that person. */
function confirmationRecipients(req: BookingRequest, bookerEmail: string): string[] {
  const reg = req.registrationData;
  const forSomeoneElse = reg.passengerDetails === 'yes' && Boolean(reg.passengerName?.trim());
  const passengerEmail = forSomeoneElse ? reg.passengerEmail || bookerEmail : bookerEmail;
  return [...new Set([bookerEmail, passengerEmail].map((e) => e.trim()).filter(Boolean))];
}

/**
 * A booking without a corporate sign-in mails whatever addresses it is given in the operator's name: counted per
 * client address and per recipient before anything is hashed or written (limits.ts); a new account also counts. An
 * existing client has proved their own address with its password: only the other recipient counts.
 */
async function countBookingWithoutSignIn(
  deps: BookingDeps, req: BookingRequest, bookerEmail: string, booker: 'guest' | 'new' | 'existing',
): Promise<void> {
  const recipients = confirmationRecipients(req, bookerEmail)
    .filter((to) => booker !== 'existing' || addressKey(to) !== addressKey(bookerEmail));
  const uses: Use[] = [
    { limit: 'bookings', key: deps.client },
    ...recipients.map((to) => ({ limit: 'confirmationsToAddress' as const, key: addressKey(to) })),
    ...(booker === 'new' ? [{ limit: 'accountCreations' as const, key: deps.client }] : []),
  ];
  await takeAllowance(deps.db, deps.limits, uses);
}

function chosenOffer(offers: PricedOffer[], req: BookingRequest): PricedOffer {
  const chosen = offers.find(
    (o) => o.offer.vehicle_id === req.selectedVehicleData.vehicle_id && o.offer.company_id === req.selectedVehicleData.company_id,
  );
  if (!chosen) throw new DomainError('invalid', 'selectedVehicleData: this vehicle is not offered for this trip', 'selectedVehicleData');
  // SPEC 2: a vehicle offered without a price is booked through Contact Us, never online at £0.
  if (chosen.unitPence <= 0) {
    throw new DomainError('invalid', 'This vehicle has no online price for this trip. Please ask us for a quote.', 'selectedVehicleData');
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
  limits: Limits;
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
  details: Pick<BookingDetail, ExtraDetailKey> & { luggages: number; hand_luggages: number; return_options: unknown; passengers: number };
  stops: BookingForm['stops'];
}

/** The quote's refusals name fields inside the form the booking carries: 'bookingForm.pickup', 'hourlyRateForm.pickup'. */
async function inForm<T>(prefix: 'bookingForm' | 'hourlyRateForm', quote: Promise<T>): Promise<T> {
  try {
    return await quote;
  } catch (err) {
    if (err instanceof DomainError && err.field) throw err.within(prefix);
    throw err;
  }
}

async function priceTrip(ctx: QuoteContext, req: BookingRequest): Promise<Trip> {
  if (req.bookingType === 'milleage') {
    const form = validate(req.bookingForm, BookingForm, 'bookingForm');
    const quote = await inForm('bookingForm', quoteDistance(ctx, form, req.selectedVehicleData));
    const isReturn = form.select_option === 'return';
    return {
      rideType: 'Q', chosen: chosenOffer(quote.offers, req), pickupAt: quote.pickupAt, pickup: form.pickup, dropoff: form.dropoff,
      date: form.pickup_date, time: toTime24(form.pickup_hour, form.pickup_min),
      returnDate: isReturn ? form.return_date : null, returnTime: isReturn ? toTime24(form.return_hour, form.return_min) : null,
      hourlyDuration: null, flightNo: form.pickup_fight_number || null,
      returnFlightNo: isReturn ? form.return_fight_number || null : null,
      miles: quote.route.miles, returnMiles: isReturn ? quote.route.returnMiles : null, seconds: quote.route.seconds,
      details: {
        ...storedExtras(legExtras(form, 'outbound')),
        luggages: form.luggages, hand_luggages: form.hand_luggages, passengers: form.passengers,
        return_options: isReturn ? {
          passengers: form.return_passengers, luggages: form.return_luggages, hand_luggages: form.return_hand_luggages,
          ...legExtras(form, 'return'),
        } : null,
      },
      stops: form.stops,
    };
  }
  if (!isEnabled(ctx.settings, 'HOURLY_RATE_STATUS')) {
    throw new DomainError('invalid', 'Hourly hire is not offered at the moment.', 'bookingType');
  }
  const form = validate(req.hourlyRateForm, HourlyRateForm, 'hourlyRateForm');
  const quote = await inForm('hourlyRateForm', quoteHourly(ctx, form, req.selectedVehicleData));
  return {
    rideType: 'H', chosen: chosenOffer(quote.offers, req), pickupAt: quote.pickupAt, pickup: form.pickup, dropoff: null,
    date: form.pickup_date, time: toTime24(form.pickup_hour, form.pickup_min), returnDate: null, returnTime: null,
    hourlyDuration: form.pickup_duration, flightNo: null, returnFlightNo: null, miles: null, returnMiles: null, seconds: null,
    details: { ...storedExtras({}), luggages: 0, hand_luggages: 0, passengers: 0, return_options: null },
    stops: [],
  };
}

/** A request checked against the settings, priced by the server, and its passenger known: ready to be written. */
export interface PreparedBooking { req: BookingRequest; trip: Trip; contact: Contact }

/** Everything that can refuse a booking before anything is written (settings, price, passenger). */
export async function prepareBooking(deps: BookingDeps, req: BookingRequest): Promise<PreparedBooking> {
  if (req.selected_passenger === 'guest_login' && deps.signedIn === null && !allowsGuests(deps.ctx.settings)) {
    throw new DomainError('invalid', 'Booking as a guest is not offered at the moment. Please sign in or create an account.', 'selected_passenger');
  }
  const trip = await priceTrip(deps.ctx, req);
  const contact = await resolveContact(deps, req);
  return { req, trip, contact };
}

/** The booking's total in pence: the server's unit price times the quantity. */
export const totalPence = (p: PreparedBooking) => p.trip.chosen.unitPence * p.req.selectedVehicle;

export async function createBooking(deps: BookingDeps, req: BookingRequest, idempotencyKey: string | null): Promise<BookingResult> {
  const hash = idempotencyKey ? requestHash(req, deps.secret) : '';
  // A guest's booking is prepared without side effects (pricing only), so its key is looked up only if the write finds
  // it used; a passenger's preparation checks a password (counted) or hashes a new one (slow): a replay skips it.
  if (idempotencyKey && (req.selected_passenger !== 'guest_login' || deps.signedIn !== null)) {
    const existing = await findByIdempotencyKey(deps, req, idempotencyKey, hash);
    if (existing) return existing;
  }
  let prepared: PreparedBooking;
  try {
    if (req.payment_method !== 'car') {
      throw new DomainError('invalid', 'payment_method: a card booking is made by paying on the card page', 'payment_method');
    }
    // The settings the wizard shows by are rules here too: a hidden choice cannot be posted.
    if (!showsPayInCar(deps.ctx.settings)) {
      throw new DomainError('invalid', 'Paying in the car is not offered at the moment. Please choose another way to pay.', 'payment_method');
    }
    prepared = await prepareBooking(deps, req);
  } catch (err) {
    // A replay of a booking made earlier answers that booking, even if it could not be made now (settings, time).
    const first = idempotencyKey && err instanceof DomainError ? await findByIdempotencyKey(deps, req, idempotencyKey, hash) : null;
    if (first) return first;
    throw err;
  }
  const options: WriteOptions = { idempotencyKey, hash, status: 'confirmed', paymentMethod: 'car', paymentStatus: 'due_in_car' };
  // One statement, on its own: it writes everything or nothing (writeAll). A booking number drawn twice (1 in 10^11)
  // fails the statement, which is then sent again with another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeAll(deps.db, deps, prepared, options);
    } catch (err) {
      if (err instanceof KeyAlreadyUsed) {
        const first = await findByIdempotencyKey(deps, req, idempotencyKey!, hash);
        if (first) return first;
        throw new DomainError('conflict', 'Another request with this Idempotency-Key is not finished. Please try again in a moment.', 'Idempotency-Key');
      }
      if (!(err instanceof BookingNumberTaken) || attempt >= 5) throw err;
    }
  }
}

export interface WriteOptions {
  idempotencyKey: string | null; hash: string;
  /** 'pending': a card booking waiting for its payment; its confirmation e-mail is held until then. */
  status: 'confirmed' | 'pending';
  paymentMethod: 'car' | 'card'; paymentStatus: 'due_in_car' | 'awaiting_payment';
}

/**
 * Writes the booking with its details, stops, passenger and confirmation e-mail, inside the caller's transaction
 * (the card payment's); returns the booking's id. See writeAll.
 */
export async function writeBooking(tx: Queryable, deps: BookingDeps, p: PreparedBooking, o: WriteOptions): Promise<number> {
  try {
    return (await writeAll(tx, deps, p, o)).booking.id;
  } catch (err) {
    // The caller's transaction is spoilt by the failed statement: the caller is asked to try again (1 in 10^11).
    if (err instanceof BookingNumberTaken) throw new DomainError('conflict', 'This conflicts with a request made at the same moment. Please try again.');
    throw err;
  }
}

const statementTexts = new Map<string, string>();

export class KeyAlreadyUsed extends Error {}
class BookingNumberTaken extends Error {}

/** PostgreSQL's (and PGlite's) error for a unique index, with the index it is about. */
function uniqueViolationOf(err: unknown): string | null {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return null;
  return e.constraint ?? /"([^"]+)"/.exec(e.message ?? '')?.[1] ?? '';
}

/**
 * The whole booking in one statement (decision 29): the key is claimed first and everything else is written only
 * from the claim's row, so a key another request used (ON CONFLICT DO NOTHING: on PostgreSQL this waits for that
 * request's transaction) writes nothing at all and answers KeyAlreadyUsed. A new account whose e-mail has one, or a
 * booking number already drawn, fails the statement, which is atomic: nothing stays behind. The answer is built here
 * from what is written (the same values loadBooking reads back, as test/api/booking-statements.test.ts checks), and
 * the confirmation rendered from it goes in with the booking.
 */
async function writeAll(q: Queryable, deps: BookingDeps, p: PreparedBooking, o: WriteOptions): Promise<BookingResult> {
  const { req, trip, contact } = p;
  const quantity = req.selectedVehicle;
  const reg = req.registrationData;
  const d = trip.details;
  const forSomeoneElse = reg.passengerDetails === 'yes' && Boolean(reg.passengerName?.trim());
  const bookingNumber = newBookingNumber();
  const offer = trip.chosen.offer;
  const total = trip.chosen.unitPence * quantity;
  const result: BookingResult = {
    booking: {
      id: 0, booking_number: bookingNumber, ride_type: trip.rideType, pick_up_address: trip.pickup, drop_off_address: trip.dropoff,
      pick_up_date: trip.date, pick_up_time: trip.time, return_date: trip.returnDate, return_time: trip.returnTime,
      hourly_duration: trip.hourlyDuration, payment_method: o.paymentMethod, total_booking_amount: penceToPounds(total),
      flight_no: trip.flightNo, return_flight_no: trip.returnFlightNo, company_name: offer.company_name,
      fleet_category: { category_name: offer.vehicle_type },
    },
    bookingDetail: {
      meet_and_greet: d.meet_and_greet, baby_seat: d.baby_seat, booster_seat: d.booster_seat, wheel_chair: d.wheel_chair,
      special_luggages: d.special_luggages, waiting_minutes: d.waiting_minutes, luggages: d.luggages, hand_luggages: d.hand_luggages,
      vehicle_qty: quantity,
    },
    bookingStops: trip.stops.map((s) => ({ id: 0, stop_address: s.street_name, stop_post_code: s.postcode, stop_street_number: s.number })),
    passengerDetails: {
      passenger_id: contact.passengerId ?? 0,
      passenger_name: forSomeoneElse ? `${reg.passengerName ?? ''} ${reg.passengerLastname ?? ''}`.trim() : contact.name,
      passenger_email: forSomeoneElse ? reg.passengerEmail || contact.email : contact.email,
      passenger_contact_no: forSomeoneElse ? contact.passengerPhone || contact.phone : contact.phone,
      total_passengers: d.passengers, additional_info: reg.additionalInfo,
    },
  };
  // The confirmation is written now, with the booking; a card booking's waits ('held') until the payment succeeds.
  const mail = bookingConfirmation(result, deps.ctx.settings, trip.chosen.detail.breakdown.lines);
  const recipients = confirmationRecipients(req, contact.email);

  const params: unknown[] = [];
  const $ = (value: unknown, type: string) => { params.push(value); return `$${params.length}::${type}`; };
  const claim = o.idempotencyKey
    ? `INSERT INTO idempotency_keys (key, request_hash) VALUES (${$(o.idempotencyKey, 'text')}, ${$(o.hash, 'text')})
         ON CONFLICT (key) DO NOTHING RETURNING key`
    : 'SELECT NULL::text AS key';
  const passenger = contact.passengerId !== null
    ? `SELECT ${$(contact.passengerId, 'int')} AS id FROM claim`
    : `INSERT INTO passengers (name, email, phone, password_hash)
         SELECT ${$(contact.name, 'text')}, ${$(contact.email.trim(), 'text')}, ${$(contact.phone.trim(), 'text')},
                ${$(contact.passwordHash, 'text')} FROM claim RETURNING id`;
  const booking = `INSERT INTO bookings (booking_number, idempotency_key, ride_type, booking_type, company_id, vehicle_type_id,
         passenger_id, registration_mode, pick_up_address, drop_off_address, pick_up_date, pick_up_time, return_date,
         return_time, hourly_duration, flight_no, return_flight_no, via_miles, return_via_miles, time_duration,
         vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown, payment_method, payment_status, pickup_at, status)
       SELECT ${$(bookingNumber, 'text')}, ${$(o.idempotencyKey, 'text')}, ${$(trip.rideType, 'text')}, ${$(req.bookingType, 'text')},
         ${$(offer.company_id, 'int')}, ${$(offer.vehicle_id, 'int')}, passenger.id, ${$(req.selected_passenger, 'text')},
         ${$(trip.pickup, 'text')}, ${$(trip.dropoff, 'text')}, ${$(trip.date, 'date')}, ${$(trip.time, 'text')},
         ${$(trip.returnDate, 'date')}, ${$(trip.returnTime, 'text')}, ${$(trip.hourlyDuration, 'text')}, ${$(trip.flightNo, 'text')},
         ${$(trip.returnFlightNo, 'text')}, ${$(trip.miles, 'float8')}, ${$(trip.returnMiles, 'float8')}, ${$(trip.seconds, 'int')},
         ${$(quantity, 'int')}, ${$(trip.chosen.unitPence, 'int')}, ${$(total, 'int')},
         ${$(JSON.stringify(trip.chosen.detail.breakdown), 'jsonb')}, ${$(o.paymentMethod, 'text')}, ${$(o.paymentStatus, 'text')},
         ${$(trip.pickupAt.toISOString(), 'timestamptz')}, ${$(o.status, 'text')}
       FROM passenger RETURNING id, passenger_id`;
  const details = `INSERT INTO booking_details (booking_id, meet_and_greet, baby_seat, booster_seat, wheel_chair, special_luggages,
         waiting_minutes, luggages, hand_luggages, vehicle_qty, return_options)
       SELECT booking.id, ${$(d.meet_and_greet, 'text')}, ${$(d.baby_seat, 'int')}, ${$(d.booster_seat, 'int')},
         ${$(d.wheel_chair, 'text')}, ${$(d.special_luggages, 'int')}, ${$(d.waiting_minutes, 'int')}, ${$(d.luggages, 'int')},
         ${$(d.hand_luggages, 'int')}, ${$(quantity, 'int')}, ${$(d.return_options ? JSON.stringify(d.return_options) : null, 'jsonb')}
       FROM booking`;
  const pd = result.passengerDetails;
  const passengers = `INSERT INTO booking_passengers (booking_id, passenger_id, passenger_name, passenger_email, passenger_contact_no,
         total_passengers, additional_info)
       SELECT booking.id, booking.passenger_id, ${$(pd.passenger_name, 'text')}, ${$(pd.passenger_email, 'text')},
         ${$(pd.passenger_contact_no, 'text')}, ${$(pd.total_passengers, 'int')}, ${$(pd.additional_info, 'text')} FROM booking`;
  const stops = trip.stops.length
    ? `INSERT INTO booking_stops (booking_id, leg, position, stop_address, stop_post_code, stop_street_number)
         SELECT booking.id, 'outbound', s.position, s.stop_address, s.stop_post_code, s.stop_street_number
           FROM booking, json_to_recordset(${$(JSON.stringify(trip.stops.map((st, position) => ({
             position, stop_address: st.street_name, stop_post_code: st.postcode, stop_street_number: st.number,
           }))), 'json')}) AS s(position int, stop_address text, stop_post_code text, stop_street_number text)
         RETURNING id, position`
    : 'SELECT NULL::int AS id, NULL::int AS position WHERE false';
  const emails = `INSERT INTO outbound_emails (kind, to_address, subject, body_text, body_html, booking_id, status)
       SELECT 'booking_confirmation', r.to_address, ${$(mail.subject, 'text')}, ${$(mail.text, 'text')}, ${$(mail.html, 'text')},
         booking.id, ${$(o.status === 'pending' ? 'held' : 'pending', 'text')}
         FROM booking, json_array_elements_text(${$(JSON.stringify(recipients), 'json')}) AS r(to_address)`;
  const built = `WITH claim AS (${claim}), passenger AS (${passenger}), booking AS (${booking}), details AS (${details}),
    passengers AS (${passengers}), stops AS (${stops}), emails AS (${emails})
    SELECT booking.id, booking.passenger_id, (SELECT json_agg(stops.id ORDER BY stops.position) FROM stops) AS stop_ids FROM booking`;
  // The text depends only on which parts there are: one string per variant, so lookups by it (the prepared
  // statement's name) hash it once.
  const variant = `${o.idempotencyKey ? 'k' : ''}${contact.passengerId !== null ? 'p' : ''}${trip.stops.length ? 's' : ''}`;
  let sql = statementTexts.get(variant);
  if (sql !== built) statementTexts.set(variant, (sql = built));
  let rows: { id: number; passenger_id: number; stop_ids: number[] | null }[];
  try {
    rows = await q.query(sql, params, { prepare: true });
  } catch (err) {
    const index = uniqueViolationOf(err);
    if (index === 'passengers_email_account') throw new DomainError('invalid', ACCOUNT_EXISTS, 'registrationData.email');
    if (index === 'bookings_booking_number_key') throw new BookingNumberTaken();
    throw err;
  }
  if (!rows.length) throw new KeyAlreadyUsed(); // another request with this key committed first: nothing was written
  const [row] = rows;
  result.booking.id = row.id;
  result.passengerDetails.passenger_id = row.passenger_id;
  (row.stop_ids ?? []).forEach((id, i) => { result.bookingStops[i].id = id; });
  return result;
}

/** The booking a key was used for, once the replay is authenticated as the first request was; 422 when the key came with another request. */
async function findByIdempotencyKey(deps: BookingDeps, req: BookingRequest, key: string, hash: string): Promise<BookingResult | null> {
  const [row] = await deps.db.query<{ id: number | null; request_hash: string; passenger_id: number | null; has_account: boolean | null }>(
    `SELECT b.id, k.request_hash, b.passenger_id, p.password_hash IS NOT NULL AS has_account
       FROM idempotency_keys k LEFT JOIN bookings b ON b.idempotency_key = k.key LEFT JOIN passengers p ON p.id = b.passenger_id
      WHERE k.key = $1`, [key]);
  if (!row) return null;
  if (row.request_hash !== hash) throw new DomainError('invalid', KEY_REUSED, 'Idempotency-Key');
  if (row.id === null) return null;
  await authenticateReplay(deps, req, { passengerId: row.passenger_id!, hasAccount: row.has_account === true });
  return loadBooking(deps.db, row.id);
}

export const REPLAY_REFUSED = 'Please sign in again to see this booking: the password or sign-in does not match the one it was made with.';

/**
 * A replayed Idempotency-Key answers with the booking, so it must pass the authentication the first request passed:
 * the request hash leaves the password out, and a booking's key alone must never show its passenger's details. A
 * booking of an account needs that account's token or password (counted as a sign-in); a guest's booking has no
 * secret beyond the request itself, which the hash already matched.
 */
export async function authenticateReplay(deps: BookingDeps, req: BookingRequest, booking: { passengerId: number; hasAccount: boolean }): Promise<void> {
  if (!booking.hasAccount) return;
  if (deps.signedIn !== null) {
    if (deps.signedIn === booking.passengerId) return;
  } else if (req.selected_passenger === 'existing_client' || req.selected_passenger === 'new_client') {
    const reg = req.registrationData;
    const result = await signIn(deps.db, { email: reg.email, password: reg.password ?? '', client: deps.client, hashCost: deps.hashCost });
    if (result.ok && result.account.id === booking.passengerId) return;
  }
  throw new DomainError('unauthenticated', REPLAY_REFUSED, 'registrationData.password');
}

export async function loadBooking(db: Queryable, id: number): Promise<BookingResult | null> {
  // One statement: the booking with its details, stops and passenger as JSON (four SELECTs before).
  const [b] = await db.query<Record<string, unknown> & {
    detail: BookingResult['bookingDetail']; stops: BookingResult['bookingStops']; passenger: BookingResult['passengerDetails'];
  }>(
    `SELECT b.id, b.booking_number, b.ride_type, b.pick_up_address, b.drop_off_address,
            to_char(b.pick_up_date, 'YYYY-MM-DD') AS pick_up_date, b.pick_up_time,
            to_char(b.return_date, 'YYYY-MM-DD') AS return_date, b.return_time, b.hourly_duration, b.payment_method,
            b.total_booking_amount_pence, b.flight_no, b.return_flight_no, c.company_name, v.category_name,
            (SELECT json_build_object('meet_and_greet', d.meet_and_greet, 'baby_seat', d.baby_seat, 'booster_seat', d.booster_seat,
                      'wheel_chair', d.wheel_chair, 'special_luggages', d.special_luggages, 'waiting_minutes', d.waiting_minutes,
                      'luggages', d.luggages, 'hand_luggages', d.hand_luggages, 'vehicle_qty', d.vehicle_qty)
               FROM booking_details d WHERE d.booking_id = b.id) AS detail,
            (SELECT coalesce(json_agg(json_build_object('id', s.id, 'stop_address', s.stop_address, 'stop_post_code', s.stop_post_code,
                      'stop_street_number', s.stop_street_number) ORDER BY s.leg DESC, s.position), '[]'::json)
               FROM booking_stops s WHERE s.booking_id = b.id) AS stops,
            (SELECT json_build_object('passenger_id', p.passenger_id, 'passenger_name', p.passenger_name,
                      'passenger_email', p.passenger_email, 'passenger_contact_no', p.passenger_contact_no,
                      'total_passengers', p.total_passengers, 'additional_info', p.additional_info)
               FROM booking_passengers p WHERE p.booking_id = b.id) AS passenger
       FROM bookings b JOIN companies c ON c.id = b.company_id JOIN vehicle_types v ON v.id = b.vehicle_type_id
      WHERE b.id = $1`,
    [id],
  );
  if (!b) return null;
  const { total_booking_amount_pence, category_name, detail, stops, passenger, ...booking } = b;
  return {
    booking: {
      ...(booking as Omit<BookingResult['booking'], 'total_booking_amount' | 'fleet_category'>),
      total_booking_amount: penceToPounds(total_booking_amount_pence as number),
      fleet_category: { category_name: category_name as string },
    },
    // A missing row reads as undefined, as it did with a SELECT of its own.
    bookingDetail: (detail ?? undefined) as BookingResult['bookingDetail'],
    bookingStops: stops,
    passengerDetails: (passenger ?? undefined) as BookingResult['passengerDetails'],
  };
}

