// The booking call's rules as a booker, a passenger and the office meet them (issue 28, the `server-bookings` group):
// who a booking is for and who is told of it (issue 26), what is stored and shown of it (issue 27), the refusals by
// field, GUEST_LOGIN and Pay in Car (SPEC 9's settings), a signed-in corporate passenger (SPEC 6), the
// Idempotency-Key and its replays (decisions 12, 29 and 35), the allowances against abuse with README's numbers,
// card bookings, and a booking number drawn twice (decision 29).
//
// The booking numbers are replaced (vi.mock) only to draw one that is taken already: every other number is the real
// generator's. So this file runs in a vitest project of its own (vitest.config.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_SECURITY, storedMessages, testApp } from './setup';
import { DEFAULT_LIMITS } from '../../src/server/limits';
import { setSetting } from '../../src/server/operator/operator';
import { officeRecipients, requestHash } from '../../src/server/bookings/bookings';
import { validate } from '../../src/server/http/body';
import { BookingRequest } from '../../src/domain/requestSchemas';
import { estimateDistance, type DistanceService } from '../../src/server/geo/distance';
import { createPassenger } from '../../src/server/auth/passengers';
import { hashPassword } from '../../src/server/auth/passwords';
import { PAYMENT_STATUS_LABELS } from '../../src/domain/bookingLabels';

/** The next booking numbers to draw instead of random ones (`next`), or one drawn every time (`always`). */
const draws = vi.hoisted(() => ({ next: [] as string[], always: null as string | null }));
vi.mock('../../src/server/bookings/bookingNumber', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/bookings/bookingNumber')>();
  return { ...real, newBookingNumber: () => draws.always ?? draws.next.shift() ?? real.newBookingNumber() };
});

// README 'Security and reliability', Allowances: written here as numbers, not read from the code.
const CONFIRMATIONS_TO_ONE_ADDRESS = 3;
const ACCOUNTS_PER_ADDRESS = 5;
const BOOKINGS_PER_ADDRESS = 10;
// SPEC 5 'Details form' (decision 20 keeps its text for every phone the server refuses).
const SPEC_PHONE_TEXT = 'Please enter a valid phone number (e.g., +xxx xxx xxx xxx)';

/** The distance service, or, while `distanceDown`, one that cannot be reached (not the visitor's fault). */
let distanceDown = false;
const distance: DistanceService = {
  name: estimateDistance.name, needsCoordinates: estimateDistance.needsCoordinates,
  leg: (from, to) => (distanceDown ? Promise.reject(new Error('connect ECONNREFUSED')) : estimateDistance.leg(from, to)),
};

/** The app the tests book through, with allowances a thousand times README's (setup.ts); `counted` has README's own. */
let t: Awaited<ReturnType<typeof testApp>>;
let counted: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp({ distance });
  counted = await testApp({ db: t.db, limits: DEFAULT_LIMITS });
});
afterAll(async () => { await t.db.close(); });

const bookingForm = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-07-04', pickup_hour: '2pm', pickup_min: '20', passengers: 2, luggages: 1,
};
const booker = { firstName: 'Grace', surname: 'Hopper', number: '+44 770 090 321', email: 'grace.hopper@example.com' };
const BOOKER_PHONE = '+44770090321'; // as stored (E.164, decision 20)

let saloon: { vehicle_id: number; company_id: number; price: string };
beforeAll(async () => {
  const { body } = await t.call('POST', '/calculate-distance-price', bookingForm);
  saloon = body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === 'Albion Executive Cars');
});

type Registration = Record<string, unknown>;
function request(registrationData: Registration, extra: Record<string, unknown> = {}) {
  return {
    selectedVehicleData: saloon, selectedVehicle: 1, bookingType: 'milleage', bookingForm, hourlyRateForm: null,
    registrationData, payment_method: 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null, ...extra,
  };
}
const book = (body: unknown, headers: Record<string, string> = {}, app = t) => app.call('POST', '/booking', body, headers);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function confirmationsOf(bookingId: number): Promise<string[]> {
  const rows = await t.db.query<{ to_address: string }>(
    "SELECT to_address FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_confirmation' ORDER BY to_address", [bookingId]);
  return rows.map((r) => r.to_address);
}
const bookingCount = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings'))[0].n;

/** An account (as a new client's booking or the office makes one), and a token of its own when asked. */
async function account(email: string, password: string, name = 'Account Holder', phone = '+447700900777') {
  const id = await createPassenger(t.db, { name, email, phone, passwordHash: await hashPassword(password, TEST_SECURITY.passwordHashCost) });
  return { id, email, password, name, phone };
}
async function tokenOf(email: string, password: string): Promise<string> {
  const res = await t.call('POST', '/check-passenger-login', { email, password });
  expect(res.status).toBe(200);
  return res.body.access_token;
}

describe('who a booking is for, and who is told (issue 26)', () => {
  it('is the booker\'s alone when the other passenger has no name, or passenger details are switched off', async () => {
    const cases: Registration[] = [
      // "Booking for someone else" ticked, the name left blank or never sent.
      { ...booker, email: 'blank.name@example.com', passengerDetails: 'yes', passengerName: '   ', passengerEmail: 'not.travelling@example.com' },
      { ...booker, email: 'no.name@example.com', passengerDetails: 'yes', passengerEmail: 'not.travelling@example.com' },
      // Ticked, filled in, then unticked: the form keeps what was typed (SPEC 4), the booking ignores it.
      { ...booker, email: 'unticked@example.com', passengerDetails: 'no', passengerName: 'Stale', passengerLastname: 'Name',
        passengerEmail: 'not.travelling@example.com', passengerPhone: '07700 900456' },
    ];
    for (const reg of cases) {
      const res = await book(request(reg));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.passengerDetails).toMatchObject({ passenger_name: 'Grace Hopper', passenger_email: reg.email, passenger_contact_no: BOOKER_PHONE });
      expect(await confirmationsOf(res.body.data.booking.id)).toEqual([reg.email]);
    }
  });

  it('sends one confirmation to one mailbox, however the two addresses are capitalised (decision 13)', async () => {
    const reg = { ...booker, email: 'Same.Person@example.com', passengerDetails: 'yes', passengerName: 'Sam', passengerLastname: 'Person', passengerEmail: 'same.person@EXAMPLE.com' };
    const res = await book(request(reg));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await confirmationsOf(res.body.data.booking.id)).toEqual(['Same.Person@example.com']);
  });

  it('names a passenger with a first name only as typed, and gives the booker\'s phone when theirs is left blank', async () => {
    const reg = { ...booker, email: 'for.ruth@example.com', passengerDetails: 'yes', passengerName: 'Ruth', passengerEmail: '', passengerPhone: '   ' };
    const res = await book(request(reg));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.passengerDetails).toMatchObject({ passenger_name: 'Ruth', passenger_email: 'for.ruth@example.com', passenger_contact_no: BOOKER_PHONE });
    expect(await confirmationsOf(res.body.data.booking.id)).toEqual(['for.ruth@example.com']);
  });

  it('copies the company only when it has an address of its own (a blank one is none)', () => {
    const settings = { FROM_EMAIL: 'office@albion.example' };
    expect(officeRecipients(settings, '   ')).toEqual({ to: 'office@albion.example', cc: null });
    expect(officeRecipients(settings, ' cars@metro.example ')).toEqual({ to: 'office@albion.example', cc: 'cars@metro.example' });
  });
});

describe('the booking as stored and shown', () => {
  it('keeps the return leg\'s own passengers, luggage and extras', async () => {
    const form = {
      ...bookingForm, select_option: 'return', return_date: '2030-07-11', return_hour: '9am', return_min: '30',
      baby_seats: 0, return_passengers: 3, return_luggages: 2, return_hand_luggages: 1, return_baby_seats: 1,
    };
    const { body: prices } = await t.call('POST', '/calculate-distance-price', form);
    const vehicle = prices.price_details.find((p: any) => p.vehicle_id === saloon.vehicle_id && p.company_id === saloon.company_id);
    const res = await book(request(booker, { bookingForm: form, selectedVehicleData: vehicle }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.bookingDetail).toMatchObject({ baby_seat: 0, luggages: 1 });
    const [row] = await t.db.query<{ return_options: Record<string, unknown> }>(
      'SELECT return_options FROM booking_details WHERE booking_id = $1', [res.body.data.booking.id]);
    expect(row.return_options).toMatchObject({ passengers: 3, luggages: 2, hand_luggages: 1, baby_seats: 1 });
  });

  it('is confirmed, to be paid in the car, on its own page (issue 27)', async () => {
    const res = await book(request({ ...booker, email: 'own.page@example.com' }));
    expect(res.body.data.booking.payment_method).toBe('car');
    const page = await t.call('GET', `/manage/${res.body.data.booking.booking_number}`, undefined, { 'X-Manage-Key': res.body.data.manage_key });
    expect(page.status).toBe(200);
    expect(page.body.manage.status_words).toBe('Confirmed');
    expect(page.body.manage.payment.method).toBe('car');
    expect(PAYMENT_STATUS_LABELS[page.body.manage.payment.status]).toBe('To be paid in the car');
  });
});

describe('what the booking call refuses, naming the field', () => {
  it('an existing client\'s phone that is not a phone number, in SPEC\'s words', async () => {
    const holder = await account('phone.checked@example.com', 'phone-pass-1');
    const res = await book(request({ email: holder.email, password: holder.password, number: '12' }, { selected_passenger: 'existing_client' }));
    expect([res.status, res.body.field, res.body.message]).toEqual([422, 'registrationData.number', `registrationData.number: ${SPEC_PHONE_TEXT}`]);
  });

  it('Pay in Car while it is not offered, saying so', async () => {
    await setSetting(t.db, 'SHOWPAYINCAR', 'no');
    try {
      const res = await book(request({ ...booker, email: 'no.car@example.com' }));
      expect([res.status, res.body.field]).toEqual([422, 'payment_method']);
      expect(res.body.message).toMatch(/pay(ing)? in the car/i);
    } finally {
      await setSetting(t.db, 'SHOWPAYINCAR', 'yes');
    }
  });

  it('an hourly booking\'s form, and its fields inside it', async () => {
    await setSetting(t.db, 'HOURLY_RATE_STATUS', 'enable');
    try {
      const hourly = (hourlyRateForm: unknown) => book(request(booker, { bookingType: 'hourly', bookingForm: null, hourlyRateForm }));
      const missing = await hourly(null);
      expect([missing.status, missing.body.field]).toEqual([422, 'hourlyRateForm']);
      const unplaced = await hourly({ pickup: 'Qqqzx Nowhere Lane', pickup_date: '2030-07-04', pickup_duration: '4hour', pickup_hour: '10am', pickup_min: '00' });
      expect([unplaced.status, unplaced.body.field]).toEqual([422, 'hourlyRateForm.pickup']);
    } finally {
      await setSetting(t.db, 'HOURLY_RATE_STATUS', 'disable');
    }
  });

  it('names no field when the journey cannot be measured (nothing typed is wrong), and writes nothing', async () => {
    const before = await bookingCount();
    distanceDown = true;
    try {
      const res = await book(request({ ...booker, email: 'unmeasured@example.com' }));
      expect(res.status).toBe(503);
      expect(res.body.field).toBeUndefined();
    } finally {
      distanceDown = false;
    }
    expect(await bookingCount()).toBe(before);
  });
});

describe('GUEST_LOGIN disabled (SPEC 9)', () => {
  it('refuses guests only: a new client, an existing client and a signed-in corporate passenger still book', async () => {
    const holder = await account('still.books@example.com', 'still-pass-1');
    const token = await tokenOf(holder.email, holder.password);
    await setSetting(t.db, 'GUEST_LOGIN', 'disable');
    try {
      const guest = await book(request({ ...booker, email: 'guest.refused@example.com' }));
      expect([guest.status, guest.body.field]).toEqual([422, 'selected_passenger']);
      const newClient = await book(request({ ...booker, email: 'new.while.closed@example.com', password: 'closed-pass-1', privacyAccepted: true, termsAccepted: true },
        { selected_passenger: 'new_client' }));
      expect(newClient.status, JSON.stringify(newClient.body)).toBe(200);
      const existing = await book(request({ email: holder.email, password: holder.password }, { selected_passenger: 'existing_client' }));
      expect(existing.status, JSON.stringify(existing.body)).toBe(200);
      // The details form opens on the guest mode (SPEC 4): a signed-in passenger's booking is theirs whatever it says.
      const corporate = await book(request({ ...booker, email: holder.email }), bearer(token));
      expect(corporate.status, JSON.stringify(corporate.body)).toBe(200);
      expect(corporate.body.data.passengerDetails.passenger_id).toBe(holder.id);
    } finally {
      await setSetting(t.db, 'GUEST_LOGIN', 'enable');
    }
  });
});

describe('a signed-in corporate passenger (SPEC 6)', () => {
  it('books in the name and e-mail the form gives, else the profile\'s, and finds the bookings in their list', async () => {
    const me = await account('corporate.profile@example.com', 'corp-pass-1', 'Charlotte Profile', '+447700900777');
    const token = await tokenOf(me.email, me.password);
    const typed = await book(request({ firstName: 'Dan', surname: 'Driver', number: '', email: 'travel.desk@example.com' }), bearer(token));
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    expect(typed.body.data.passengerDetails).toMatchObject({
      passenger_id: me.id, passenger_name: 'Dan Driver', passenger_email: 'travel.desk@example.com', passenger_contact_no: me.phone,
    });
    const blank = await book(request({ firstName: '', surname: '', number: '', email: me.email }), bearer(token));
    expect(blank.body.data.passengerDetails).toMatchObject({ passenger_id: me.id, passenger_name: 'Charlotte Profile', passenger_email: me.email });
    const list = await t.call('GET', `/get_booking/${me.id}`, undefined, bearer(token));
    expect(list.body.map((b: { booking_number: string }) => b.booking_number).sort())
      .toEqual([typed.body.data.booking.booking_number, blank.body.data.booking.booking_number].sort());
  });

  it('has every phone the form gives checked, naming its field in SPEC\'s words', async () => {
    const me = await account('corporate.phones@example.com', 'phones-pass-1', 'Paula Phones');
    const token = await tokenOf(me.email, me.password);
    const own = await book(request({ firstName: 'Paula', surname: 'Phones', number: '12', email: me.email }), bearer(token));
    expect([own.status, own.body.field, own.body.message]).toEqual([422, 'registrationData.number', `registrationData.number: ${SPEC_PHONE_TEXT}`]);
    const guest = await book(request({ firstName: 'Paula', surname: 'Phones', number: '', email: me.email,
      passengerDetails: 'yes', passengerName: 'Gus', passengerLastname: 'Guest', passengerPhone: '12' }), bearer(token));
    expect([guest.status, guest.body.field, guest.body.message])
      .toEqual([422, 'registrationData.passengerPhone', `registrationData.passengerPhone: ${SPEC_PHONE_TEXT}`]);
  });

  it('has a replayed key answered with their own token only: another passenger\'s, or none, is 401 and shows nothing', async () => {
    const me = await account('corporate.replay@example.com', 'replay-pass-1', 'Rita Replay');
    const other = await account('corporate.other@example.com', 'other-pass-1', 'Oscar Other');
    const [mine, theirs] = [await tokenOf(me.email, me.password), await tokenOf(other.email, other.password)];
    const body = request({ firstName: 'Rita', surname: 'Replay', number: '', email: me.email });
    const headers = { 'Idempotency-Key': 'corporate-replay-1' };
    const first = await book(body, { ...headers, ...bearer(mine) });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await book(body, { ...headers, ...bearer(mine) });
    expect([again.status, again.body.data?.booking.booking_number]).toEqual([200, first.body.data.booking.booking_number]);
    for (const refused of [await book(body, { ...headers, ...bearer(theirs) }), await book(body, headers)]) {
      expect([refused.status, refused.body.field]).toEqual([401, 'registrationData.password']);
      expect(JSON.stringify(refused.body)).not.toContain(first.body.data.booking.booking_number);
      expect(JSON.stringify(refused.body)).not.toContain('Rita');
    }
    expect(await t.db.query("SELECT 1 FROM bookings WHERE idempotency_key = 'corporate-replay-1'")).toHaveLength(1);
  });
});

describe('a replayed Idempotency-Key of an account\'s booking (decision 35)', () => {
  it('answers a new client\'s booking only with the account\'s password', async () => {
    const body = request({ ...booker, email: 'replayed.signup@example.com', password: 'signup-pass-1', privacyAccepted: true, termsAccepted: true },
      { selected_passenger: 'new_client' });
    const headers = { 'Idempotency-Key': 'signup-replay-1' };
    const first = await book(body, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const guessed = await book({ ...body, registrationData: { ...body.registrationData, password: 'guessed-pass-1' } }, headers);
    expect([guessed.status, guessed.body.field]).toEqual([401, 'registrationData.password']);
    expect(JSON.stringify(guessed.body)).not.toContain(first.body.data.booking.booking_number);
    expect(guessed.body.data).toBeUndefined();
    const again = await book(body, headers);
    expect([again.status, again.body.data?.booking.booking_number]).toEqual([200, first.body.data.booking.booking_number]);
  });

  it('answers an existing client\'s booking with their password', async () => {
    const holder = await account('replayed.existing@example.com', 'existing-pass-1', 'Edith Existing');
    const body = request({ email: holder.email, password: holder.password }, { selected_passenger: 'existing_client' });
    const headers = { 'Idempotency-Key': 'existing-replay-1' };
    const first = await book(body, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await book(body, headers);
    expect([again.status, again.body.data?.booking.booking_number]).toEqual([200, first.body.data.booking.booking_number]);
    const wrong = await book({ ...body, registrationData: { ...body.registrationData, password: 'not-her-pass' } }, headers);
    expect([wrong.status, wrong.body.field]).toEqual([401, 'registrationData.password']);
  });

  it('never answers to the account that took the e-mail over after the first one moved away', async () => {
    const body = request({ ...booker, email: 'first.owner@example.com', password: 'owner-pass-1', privacyAccepted: true, termsAccepted: true },
      { selected_passenger: 'new_client' });
    const headers = { 'Idempotency-Key': 'moved-owner-1' };
    const first = await book(body, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // The owner moves to another address (with the current password, decision 35) ...
    const token = await tokenOf('first.owner@example.com', 'owner-pass-1');
    const moved = await t.call('PATCH', '/update-passenger',
      { name: 'Grace Hopper', email: 'moved.owner@example.com', phone: '', current_password: 'owner-pass-1' }, bearer(token));
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // ... and someone else signs up with the old one.
    const taker = { ...body.registrationData, firstName: 'Trudy', surname: 'Taker', password: 'taker-pass-1' };
    expect((await book(request(taker, { selected_passenger: 'new_client' }))).status).toBe(200);
    const replay = await book({ ...body, registrationData: { ...body.registrationData, password: 'taker-pass-1' } }, headers);
    expect([replay.status, replay.body.field]).toEqual([401, 'registrationData.password']);
    expect(JSON.stringify(replay.body)).not.toContain(first.body.data.booking.booking_number);
  });
});

describe('the Idempotency-Key (decision 12)', () => {
  /** The same JSON with every object's keys in the opposite order. */
  const reversed = (v: unknown): unknown => (Array.isArray(v) ? v.map(reversed)
    : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)])) : v);

  it('knows the same request sent with its fields in another order, and a different quantity as another request', async () => {
    const body = request({ ...booker, email: 'reordered@example.com', additionalInfo: 'Two cases' },
      { bookingForm: { ...bookingForm, stops: [{ street_name: 'Euston Station, Euston Road, London', number: '', postcode: 'NW1 2RT' }] } });
    const headers = { 'Idempotency-Key': 'reordered-1' };
    const first = await book(body, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const same = await book(JSON.stringify(reversed(body)), headers);
    expect([same.status, same.body.data?.booking.booking_number]).toEqual([200, first.body.data.booking.booking_number]);
    const two = await book({ ...body, selectedVehicle: 2 }, headers);
    expect([two.status, two.body.field]).toEqual([422, 'Idempotency-Key']);
    expect(await t.db.query("SELECT 1 FROM bookings WHERE idempotency_key = 'reordered-1'")).toHaveLength(1);
  });

  it('answers 409 naming it while the request that claimed it has not finished, and writes nothing', async () => {
    const body = request({ ...booker, email: 'unfinished@example.com' });
    // The claim of a request still being written (decision 12): the key with this very request's hash, no booking yet.
    await t.db.query('INSERT INTO idempotency_keys (key, request_hash) VALUES ($1, $2)',
      ['unfinished-1', requestHash(validate(body, BookingRequest), TEST_SECURITY.secret)]);
    const before = await bookingCount();
    const res = await book(body, { 'Idempotency-Key': 'unfinished-1' });
    expect([res.status, res.body.field]).toEqual([409, 'Idempotency-Key']);
    expect(res.body.message).toMatch(/try again/i);
    expect(await bookingCount()).toBe(before);
  });
});

describe('allowances (README \'Security and reliability\', decision 35)', () => {
  let address = 0;
  /** A client address of its own for each use, so only the allowance under test can run out. */
  const from = () => ({ 'X-Forwarded-For': `198.51.100.${++address}` });

  it(`confirms at most ${CONFIRMATIONS_TO_ONE_ADDRESS} bookings an hour to one address, whoever books, the booker's own included`, async () => {
    const reg = { ...booker, email: 'often.booked@example.com' };
    for (let i = 0; i < CONFIRMATIONS_TO_ONE_ADDRESS; i++) expect((await book(request(reg), from(), counted)).status).toBe(200);
    const before = await bookingCount();
    const refused = await book(request(reg), from(), counted);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(await bookingCount()).toBe(before);
  });

  it('exempts an existing client\'s own address, not the other person they book for', async () => {
    const holder = await account('exempt.owner@example.com', 'exempt-pass-1');
    const own = request({ email: holder.email, password: holder.password }, { selected_passenger: 'existing_client' });
    for (let i = 0; i <= CONFIRMATIONS_TO_ONE_ADDRESS; i++) {
      const res = await book(own, from(), counted);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const forFriend = request({ email: holder.email, password: holder.password, passengerDetails: 'yes', passengerName: 'Frank', passengerEmail: 'frank.friend@example.com' },
      { selected_passenger: 'existing_client' });
    for (let i = 0; i < CONFIRMATIONS_TO_ONE_ADDRESS; i++) expect((await book(forFriend, from(), counted)).status).toBe(200);
    expect((await book(forFriend, from(), counted)).status).toBe(429);
  });

  it(`lets one address create ${ACCOUNTS_PER_ADDRESS} accounts an hour; its guest and existing-client bookings create none`, async () => {
    const address = { 'X-Forwarded-For': '203.0.113.150' };
    const newClient = (i: number) => request({ ...booker, email: `signup.${i}@example.com`, password: `signup-pass-${i}`, privacyAccepted: true, termsAccepted: true },
      { selected_passenger: 'new_client' });
    for (let i = 0; i < ACCOUNTS_PER_ADDRESS; i++) expect((await book(newClient(i), address, counted)).status).toBe(200);
    const guest = await book(request({ ...booker, email: 'guest.after.signups@example.com' }), address, counted);
    expect(guest.status, JSON.stringify(guest.body)).toBe(200);
    const existing = await book(request({ email: 'signup.0@example.com', password: 'signup-pass-0' }, { selected_passenger: 'existing_client' }), address, counted);
    expect(existing.status, JSON.stringify(existing.body)).toBe(200);
    const sixth = await book(newClient(ACCOUNTS_PER_ADDRESS), address, counted);
    expect([sixth.status, sixth.body.field]).toEqual([429, 'registrationData.email']);
    expect(await t.db.query("SELECT 1 FROM passengers WHERE email = $1", [`signup.${ACCOUNTS_PER_ADDRESS}@example.com`])).toHaveLength(0);
  });

  it('answers a client\'s retried booking before preparing it again, so retries spend none of the address\'s bookings (decision 29)', async () => {
    const address = { 'X-Forwarded-For': '203.0.113.160' };
    const holder = await account('retrying.client@example.com', 'retry-pass-1');
    const body = request({ email: holder.email, password: holder.password }, { selected_passenger: 'existing_client' });
    const first = await book(body, { ...address, 'Idempotency-Key': 'retried-1' }, counted);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    for (let i = 1; i < BOOKINGS_PER_ADDRESS; i++) {
      const again = await book(body, { ...address, 'Idempotency-Key': 'retried-1' }, counted);
      expect(again.body.data?.booking.booking_number).toBe(first.body.data.booking.booking_number);
    }
    // One booking made from this address: another one is still welcome.
    const next = await book(request({ ...booker, email: 'after.retries@example.com' }), address, counted);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
  });
});

/** What Stripe.js does in the browser: a card to a payment method at the local test gateway, with the publishable key. */
async function paymentMethod(number = '4242424242424242'): Promise<string> {
  const { publishableKey } = (await t.call('GET', '/secret_key')).body;
  const res = await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST',
    headers: { Authorization: `Bearer ${publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': number, 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  });
  return ((await res.json()) as { id: string }).id;
}

describe('card bookings (SPEC 4 \'Card payment\')', () => {
  const cardRequest = (email: string) => request({ ...booker, email }, { payment_method: 'card', selectedVehicle: 2 });
  /** SPEC 9: the amount is the price times the quantity, in pence. */
  const amountFor = (quantity: number) => Math.round(Number(saloon.price) * 100) * quantity;

  it('takes the price times the quantity, and tells the office the booking is paid by card', async () => {
    const body = cardRequest('card.payer@example.com');
    const headers = { 'Idempotency-Key': 'card-rules-1' };
    const intent = await t.call('POST', '/create-payment-intent', { ...body, paymentMethodId: await paymentMethod(), amount: amountFor(2) }, headers);
    expect(intent.status, JSON.stringify(intent.body)).toBe(200);
    const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: intent.body.paymentIntentId });
    expect(confirmed.body.status).toBe('succeeded');
    const res = await book({ ...body, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.booking).toMatchObject({ payment_method: 'card', total_booking_amount: (amountFor(2) / 100).toFixed(2) });
    const notices = await storedMessages(t.db, res.body.data.booking.id, 'new_booking_notice');
    expect(notices).toHaveLength(1);
    expect(notices[0].status).toBe('pending');
    expect(notices[0].body_text).toMatch(/paid by card/i);
    expect(notices[0].body_text).not.toMatch(/to be paid in the car/i);
  });

  it('starts one booking for one key when the card page sends its call twice at once', async () => {
    const body = { ...cardRequest('double.click@example.com'), paymentMethodId: await paymentMethod(), amount: amountFor(2) };
    const headers = { 'Idempotency-Key': 'card-rules-twice' };
    const answers = await Promise.all([1, 2].map(() => t.call('POST', '/create-payment-intent', body, headers)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[1].body.paymentIntentId).toBe(answers[0].body.paymentIntentId);
    expect(await t.db.query("SELECT 1 FROM bookings WHERE idempotency_key = 'card-rules-twice'")).toHaveLength(1);
  });
});

describe('a booking number drawn twice (decision 29, 1 in 10^11)', () => {
  let taken: string;
  beforeAll(async () => {
    const res = await book(request({ ...booker, email: 'first.number@example.com' }));
    taken = res.body.data.booking.booking_number;
  });

  it('is drawn again for a booking paid in the car: the booking is made, once, and the first keeps its number', async () => {
    const before = await bookingCount();
    draws.next = [taken, taken];
    try {
      const res = await book(request({ ...booker, email: 'second.number@example.com' }), { 'Idempotency-Key': 'drawn-twice-1' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.booking.booking_number).not.toBe(taken);
      expect(res.body.data.booking.booking_number).toMatch(/^BK-[A-Z2-9]{8}$/);
    } finally {
      draws.next = [];
    }
    expect(await bookingCount()).toBe(before + 1);
    const [first] = await t.db.query<{ email: string }>(
      'SELECT p.passenger_email AS email FROM bookings b JOIN booking_passengers p ON p.booking_id = b.id WHERE b.booking_number = $1', [taken]);
    expect(first.email).toBe('first.number@example.com');
  });

  it('is not drawn for ever: when every number is taken the booking fails, writing nothing', { timeout: 10_000 }, async () => {
    const before = await bookingCount();
    draws.always = taken;
    try {
      // A fault on the server's side (logged), not a refusal of anything the booker typed.
      const res = await book(request({ ...booker, email: 'never.numbered@example.com' }));
      expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      draws.always = null;
    }
    expect(await bookingCount()).toBe(before);
  });

  it('makes a card payment\'s start answer 409 to try again; trying again starts it', async () => {
    const body = {
      ...request({ ...booker, email: 'card.drawn.twice@example.com' }, { payment_method: 'card' }),
      paymentMethodId: await paymentMethod(), amount: Math.round(Number(saloon.price) * 100),
    };
    const headers = { 'Idempotency-Key': 'card-drawn-twice' };
    draws.next = [taken];
    const clash = await t.call('POST', '/create-payment-intent', body, headers).finally(() => { draws.next = []; });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toMatch(/try again/i);
    expect(await t.db.query("SELECT 1 FROM bookings WHERE idempotency_key = 'card-drawn-twice'")).toHaveLength(0);
    const retry = await t.call('POST', '/create-payment-intent', body, headers);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(await t.db.query("SELECT 1 FROM bookings WHERE idempotency_key = 'card-drawn-twice'")).toHaveLength(1);
  });
});
