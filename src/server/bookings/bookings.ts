// Writing a booking: the server prices it again, stores it with its
// confirmation e-mail in one transaction, and answers with SPEC 7's shape.
// The amount a client sends is never used.
import { legExtras, storedExtras } from '../../domain/extras';
import { createHmac } from 'node:crypto';
import type { Db, Queryable } from '../db/index';
import { BookingForm, HourlyRateForm, type BookingResult } from '../../domain/schemas';
import { type BookingRequest } from '../../domain/requestSchemas';
import { penceToPounds } from '../../domain/money';
import { allowsGuests, isEnabled, operatorEmail, showsPayInCar, type Settings } from '../../domain/settings';
import { toTime24 } from '../../domain/ukTime';
import { validateDetails } from '../../domain/detailsValidation';
import { isPhone, normalisePhone, PHONE_MESSAGE } from '../../domain/phone';
import { DomainError } from '../errors';
import { validate } from '../http/body';
import { quoteDistance, quoteHourly, type PricedOffer, type QuoteContext } from '../pricing/quote';
import { findAccount, signIn } from '../auth/passengers';
import { NOTHING_TAKEN, addressKey, allowanceRows, refuseAllowance, returnAllowance, takeAllowance, type Limits, type Taken, type Use } from '../limits';
import { ACCOUNT_EXISTS } from '../../domain/messages';
import { hashPassword } from '../auth/passwords';
import { profileOf } from '../account/account';
import { confirmationSubject, noticeSubject, type StoredBookingMessage } from '../mail/templates';
import { newBookingNumber } from './bookingNumber';
import { freeWaitingFor } from '../../domain/freeWaiting';
import { hashKey, manageLink, newKey } from './manageKeys';
import { AllowanceUsedUp, BookingNumberTaken, KeyAlreadyUsed, insertBooking, keyUse, loadBooking, type BookingWrite } from './queries';
import { bookingWriter } from './bookingBatch';
import type { Contact, PreparedBooking, Trip, WriteOptions } from './types';
import { timed, timedSync } from '../timing';
import { accountForBooking, holdCredit, type OnAccount } from '../accounts/billing';

export const BAD_CREDENTIALS = 'The email or password is not correct.';

/** A phone of the request as stored (E.164, decision 20), '' when none is given; a bad one is a 422 naming its field. */
function storedPhone(text: string | undefined, field: string): string {
  if (!text?.trim()) return '';
  const e164 = normalisePhone(text);
  if (e164 === null) throw new DomainError('invalid', `${field}: ${PHONE_MESSAGE}`, field);
  return e164;
}

/**
 * Who the booking is for, by registration mode (SPEC 4): checked before anything is written. What it counts against
 * the allowances comes back with it, to be given back if the booking is then not written. With `countLater`, a guest's
 * and an existing client's allowances are left for the booking's statement to count (`toCount`, issue 40): nothing
 * costly happens between the count and the write. A new account's are counted now, before its password is hashed.
 */
async function resolveContact(deps: BookingDeps, req: BookingRequest, countLater: boolean): Promise<{ contact: Contact; taken: Taken; toCount: Use[] }> {
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
      contact: {
        passengerId: p.passenger_id, name, email: reg.email || p.passenger_email, phone: phone || p.passenger_contact_no, passwordHash: null,
        passengerPhone,
      },
      taken: NOTHING_TAKEN, toCount: [],
    };
  }
  const counting = async (uses: Use[]) => (deps.byOffice ? { taken: NOTHING_TAKEN, toCount: [] } : countLater
    ? { taken: NOTHING_TAKEN, toCount: uses } : { taken: await takeAllowance(deps.db, deps.limits, uses), toCount: [] });
  const name = `${reg.firstName} ${reg.surname}`.trim();
  if (mode === 'existing_client') {
    const result = await signIn(deps.db, { email: reg.email, password: reg.password ?? '', client: deps.client, hashCost: deps.hashCost });
    if (!result.ok) throw new DomainError('invalid', BAD_CREDENTIALS, 'registrationData.password');
    const a = result.account;
    const contact = { passengerId: a.id, name: name || a.name, email: a.email, phone: phone || a.phone, passwordHash: null, passengerPhone };
    return { contact, ...await counting(bookingUses(deps, req, contact.email, 'existing')) };
  }
  if (mode === 'guest_login') {
    return { contact: { passengerId: null, name, email: reg.email.trim(), phone, passwordHash: null, passengerPhone }, ...await counting(bookingUses(deps, req, reg.email, 'guest')) };
  }
  // Counted first (so trying addresses here is limited too), then a new client's e-mail is checked before its
  // password is hashed (SPEC 4 tells a visitor whether an e-mail has an account); the unique index still decides a
  // race (writeAll).
  const taken = await takeAllowance(deps.db, deps.limits, bookingUses(deps, req, reg.email, 'new'));
  try {
    if (await findAccount(deps.db, reg.email)) throw new DomainError('invalid', ACCOUNT_EXISTS, 'registrationData.email');
    // The hashing queue may be full (503, try again shortly): that try is given back, so the retry is not refused.
    const passwordHash = await hashPassword(reg.password ?? '', deps.hashCost);
    // A hash made is work done: the new account's allowance stays spent whatever becomes of the booking (a conflict,
    // a replay), so failing after the hash cannot buy hashes for nothing. The rest is given back if nothing is written.
    const kept = { uses: taken.uses.filter((u) => u.name !== 'accountCreations') };
    return { contact: { passengerId: null, name, email: reg.email.trim(), phone, passwordHash, passengerPhone }, taken: kept, toCount: [] };
  } catch (err) {
    await returnAllowance(deps.db, taken);
    throw err;
  }
}

/**
 * Who hears of a booking besides the passenger (issue 26): the office, and the company whose vehicle was booked as a
 * copy of the same message (none when it has no address or it is the office's own).
 */
export function officeRecipients(settings: Settings, companyEmail: string): { to: string; cc: string | null } {
  const office = operatorEmail(settings);
  const company = companyEmail.trim();
  return { to: office, cc: company && addressKey(company) !== addressKey(office) ? company : null };
}

/**
 * Where a booking's confirmation goes: the booker and, when booking for someone else with an address, that person;
 * one mailbox once, however its address is capitalised (decision 13).
 */
function confirmationRecipients(req: BookingRequest, bookerEmail: string): string[] {
  const reg = req.registrationData;
  const forSomeoneElse = reg.passengerDetails === 'yes' && Boolean(reg.passengerName?.trim());
  const passengerEmail = forSomeoneElse ? reg.passengerEmail || bookerEmail : bookerEmail;
  const recipients = [bookerEmail, passengerEmail].map((e) => e.trim()).filter(Boolean);
  return recipients.filter((e, i) => recipients.findIndex((other) => addressKey(other) === addressKey(e)) === i);
}

/**
 * A booking without a corporate sign-in mails whatever addresses it is given in the operator's name: counted per
 * client address and per recipient before anything is hashed or written (limits.ts); a new account also counts.
 * Every recipient counts a message (messagesToAddress, whatever sends it: issue 39); an existing client has proved
 * their own address with its password, so only the other recipient counts a confirmation.
 */
function bookingUses(deps: BookingDeps, req: BookingRequest, bookerEmail: string, booker: 'guest' | 'new' | 'existing'): Use[] {
  const recipients = confirmationRecipients(req, bookerEmail);
  const uses: Use[] = [
    { limit: 'bookings', key: deps.client },
    ...recipients
      .filter((to) => booker !== 'existing' || addressKey(to) !== addressKey(bookerEmail))
      .map((to) => ({ limit: 'confirmationsToAddress' as const, key: addressKey(to) })),
    ...recipients.map((to) => ({ limit: 'messagesToAddress' as const, key: addressKey(to) })),
    ...(booker === 'new' ? [{ limit: 'accountCreations' as const, key: deps.client }] : []),
  ];
  return uses;
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
  /** The site's address, for the link to the booking in the office's e-mail. */
  siteUrl: string;
  /**
   * Taken by the office on the telephone (issue 43): the allowances against abuse, which count what a visitor's address
   * and the addresses it gives may do, do not apply, and a guest may be booked whatever the website offers.
   */
  byOffice?: boolean;
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
/** The quote's refusals name fields inside the form the booking carries: 'bookingForm.pickup', 'hourlyRateForm.pickup'. */
async function inForm<T>(prefix: 'bookingForm' | 'hourlyRateForm', quote: Promise<T>): Promise<T> {
  try {
    return await quote;
  } catch (err) {
    if (err instanceof DomainError && err.field) throw err.within(prefix);
    throw err;
  }
}

async function priceTrip(ctx: QuoteContext, req: BookingRequest, byOffice = false): Promise<Trip> {
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
      stops: form.stops, pickupAirport: quote.route.pickupAirport,
    };
  }
  if (!isEnabled(ctx.settings, 'HOURLY_RATE_STATUS') && !byOffice) {
    throw new DomainError('invalid', 'Hourly hire is not offered at the moment.', 'bookingType');
  }
  const form = validate(req.hourlyRateForm, HourlyRateForm, 'hourlyRateForm');
  const quote = await inForm('hourlyRateForm', quoteHourly(ctx, form, req.selectedVehicleData));
  return {
    rideType: 'H', chosen: chosenOffer(quote.offers, req), pickupAt: quote.pickupAt, pickup: form.pickup, dropoff: null,
    date: form.pickup_date, time: toTime24(form.pickup_hour, form.pickup_min), returnDate: null, returnTime: null,
    hourlyDuration: form.pickup_duration, flightNo: null, returnFlightNo: null, miles: null, returnMiles: null, seconds: null,
    details: { ...storedExtras({}), luggages: 0, hand_luggages: 0, passengers: 0, return_options: null },
    stops: [], pickupAirport: quote.pickupAirport,
  };
}

/**
 * Everything that can refuse a booking before anything is written (settings, price, passenger). `checkPrice` refuses
 * what the price alone decides (a card's amount) before the passenger is checked: nothing is counted or hashed for it.
 * `countInStatement`: a guest's or an existing client's allowances are counted by the booking's own statement (a
 * booking paid in the car, written on its own); a card booking's are counted before its payment starts.
 */
export async function prepareBooking(
  deps: BookingDeps, req: BookingRequest, checkPrice: (totalPence: number) => void = () => {}, countInStatement = false,
): Promise<PreparedBooking> {
  if (req.selected_passenger === 'guest_login' && deps.signedIn === null && !deps.byOffice && !allowsGuests(deps.ctx.settings)) {
    throw new DomainError('invalid', 'Booking as a guest is not offered at the moment. Please sign in or create an account.', 'selected_passenger');
  }
  const trip = await timed('booking 3 price the trip', () => priceTrip(deps.ctx, req, deps.byOffice));
  checkPrice(trip.chosen.unitPence * req.selectedVehicle);
  const { contact, taken, toCount } = await timed('booking 4 passenger and allowances', () => resolveContact(deps, req, countInStatement));
  return { req, trip, contact, taken, toCount };
}


export async function createBooking(deps: BookingDeps, req: BookingRequest, idempotencyKey: string | null): Promise<BookingResult> {
  const hash = idempotencyKey ? requestHash(req, deps.secret) : '';
  // A guest's booking is prepared without side effects (pricing only), so its key is looked up only if the write finds
  // it used; a passenger's preparation checks a password (counted) or hashes a new one (slow): a replay skips it.
  if (idempotencyKey && (req.selected_passenger !== 'guest_login' || deps.signedIn !== null)) {
    const existing = await findByIdempotencyKey(deps, req, idempotencyKey, hash);
    if (existing) return existing;
  }
  let prepared: PreparedBooking;
  let account: OnAccount | null = null;
  try {
    if (req.payment_method === 'card') {
      throw new DomainError('invalid', 'payment_method: a card booking is made by paying on the card page', 'payment_method');
    }
    // The settings the wizard shows by are rules here too: a hidden choice cannot be posted.
    if (req.payment_method === 'car' && !showsPayInCar(deps.ctx.settings)) {
      throw new DomainError('invalid', 'Paying in the car is not offered at the moment. Please choose another way to pay.', 'payment_method');
    }
    // Issue 44: a booker of an active account, its fields filled; the limit is checked again as it is written.
    if (req.payment_method === 'account') account = await accountForBooking(deps.db, deps.signedIn, req.account_fields, deps.ctx.settings);
    prepared = await prepareBooking(deps, req, undefined, true);
  } catch (err) {
    // A replay of a booking made earlier answers that booking, even if it could not be made now (settings, time).
    const first = idempotencyKey && err instanceof DomainError ? await findByIdempotencyKey(deps, req, idempotencyKey, hash) : null;
    if (first) return first;
    throw err;
  }
  const options: WriteOptions = {
    idempotencyKey, hash, status: 'confirmed', bookedVia: deps.signedIn === null ? 'web' : 'account',
    ...(account ? { paymentMethod: 'account', paymentStatus: 'on_account', account } as const : { paymentMethod: 'car', paymentStatus: 'due_in_car' } as const),
  };
  const onAccount = account;
  // One statement, on its own: it writes everything or nothing (writeAll). A booking number drawn twice (1 in 10^11)
  // fails the statement, which is then sent again with another. A booking on account is written in a transaction
  // that holds the account's row while its credit limit is checked (accounts/billing.ts).
  for (let attempt = 1; ; attempt++) {
    try {
      if (onAccount) {
        const total = prepared.trip.chosen.unitPence * req.selectedVehicle;
        return await deps.db.transaction(async (tx) => {
          await holdCredit(tx, deps.signedIn!, onAccount.id, total, deps.ctx.settings);
          return writeAll(tx, deps, prepared, options);
        });
      }
      return await writeAll(deps.db, deps, prepared, options);
    } catch (err) {
      if (err instanceof BookingNumberTaken && attempt < 5) continue;
      // A replay that waited on the account's row behind its first request answers that booking (issue 44).
      if (onAccount && idempotencyKey && err instanceof DomainError) {
        const first = await findByIdempotencyKey(deps, req, idempotencyKey, hash);
        if (first) return first;
      }
      // Nothing was written: a replay of the key (answered with its booking), a request not finished, or a failure
      // spent no allowance (issue 39); the statement counts its own only when it writes (decision 63).
      await returnAllowance(deps.db, prepared.taken);
      // (A replay of a booking made earlier is KeyAlreadyUsed: its statement writes nothing, so counts nothing.)
      if (err instanceof AllowanceUsedUp) {
        return refuseAllowance(deps.db, deps.limits, prepared.toCount, allowanceRows(deps.limits, prepared.toCount), err.within);
      }
      if (!(err instanceof KeyAlreadyUsed)) throw err;
      const first = await findByIdempotencyKey(deps, req, idempotencyKey!, hash);
      if (first) return first;
      throw new DomainError('conflict', 'Another request with this Idempotency-Key is not finished. Please try again in a moment.', 'Idempotency-Key');
    }
  }
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

/**
 * The whole booking, written in one statement (queries.ts insertBooking). The answer is built here from what is
 * written (the same values loadBooking reads back, as test/api/booking-statements.test.ts checks), and the
 * confirmation rendered from it goes in with the booking.
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
      vehicle_qty: quantity, free_waiting_minutes: freeWaitingFor(deps.ctx.settings, trip.pickupAirport),
      free_waiting_airport: trip.pickupAirport, sign_text: null,
    },
    bookingStops: trip.stops.map((s) => ({ id: 0, stop_address: s.street_name, stop_post_code: s.postcode, stop_street_number: s.number })),
    passengerDetails: {
      passenger_id: contact.passengerId ?? 0,
      passenger_name: forSomeoneElse ? [reg.passengerName, reg.passengerLastname].map((n) => n?.trim()).filter(Boolean).join(' ') : contact.name,
      passenger_email: forSomeoneElse ? reg.passengerEmail || contact.email : contact.email,
      passenger_contact_no: forSomeoneElse ? contact.passengerPhone || contact.phone : contact.phone,
      total_passengers: d.passengers, additional_info: reg.additionalInfo,
    },
  };
  // The confirmation and the office's notice are written now, with the booking, as what the sender renders them from
  // (issue 40); a card booking's wait ('held') until the payment succeeds.
  const manageKey = timedSync('booking 5 manage key', newKey);
  const lines = trip.chosen.detail.breakdown.lines;
  const mail = timedSync('booking 6 the confirmation\'s data', () => ({
    subject: confirmationSubject(result),
    data: JSON.stringify({ booking: result, lines, manageLink: manageLink(deps.siteUrl, bookingNumber, manageKey) } satisfies StoredBookingMessage),
  }));
  const recipients = confirmationRecipients(req, contact.email);
  const notice = timedSync('booking 7 the office notice\'s data', () => ({
    subject: noticeSubject(result),
    data: JSON.stringify({
      booking: result, lines,
      notice: {
        booker: { name: contact.name, email: contact.email, phone: contact.phone },
        // A card booking's notice is held with its confirmation and sent only once the payment has succeeded.
        paymentStatus: o.paymentMethod === 'card' ? 'Paid by card' : o.account
          ? `On account: ${o.account.name}${o.account.fields.map((f) => `, ${f.label} ${f.value}`).join('')}` : 'To be paid in the car',
        consoleUrl: `${deps.siteUrl}/operator/bookings/${bookingNumber}`,
      },
    } satisfies StoredBookingMessage),
  }));

  const write: BookingWrite = {
    prepared: p, options: o, bookingNumber, passenger: result.passengerDetails, mail, recipients, manageKeyHash: hashKey(manageKey),
    freeWaiting: { minutes: result.bookingDetail.free_waiting_minutes!, airport: trip.pickupAirport },
    notice: { mail: notice, ...officeRecipients(deps.ctx.settings, offer.company_email), replyTo: contact.email },
    allowance: allowanceRows(deps.limits, p.toCount),
  };
  // A booking written on its own (not in a caller's transaction) may share its statement with others made at the
  // same moment (bookingBatch.ts, decision 65).
  const row = await timed('booking 8 the statement', () => (q === deps.db ? bookingWriter(deps.db).write(write) : insertBooking(q, write)));
  result.booking.id = row.id;
  result.passengerDetails.passenger_id = row.passenger_id;
  result.manage_key = manageKey;
  (row.stop_ids ?? []).forEach((id, i) => { result.bookingStops[i].id = id; });
  return result;
}


/** The booking a key was used for, once the replay is authenticated as the first request was; 422 when the key came with another request. */
async function findByIdempotencyKey(deps: BookingDeps, req: BookingRequest, key: string, hash: string): Promise<BookingResult | null> {
  const row = await keyUse(deps.db, key);
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

