// The demo corporate passenger (README gives the sign-in): an account with past
// and upcoming bookings of both types, so the account area has something to show
// on a fresh `npm start`. Dates are relative to the day the database is seeded.
import type { Db, Queryable } from '../db/index';
import { ukToday } from '../../domain/ukTime';
import { newBookingNumber } from '../bookings/bookingNumber';
import { previousMonth } from '../../domain/accounts';

export const DEMO_CORPORATE = {
  // The phone as every phone is stored (E.164, decision 20); shown as +44 20 7946 0018.
  name: 'Charlotte Davies', email: 'charlotte.davies@northbridge-consulting.co.uk', phone: '+442079460018', password: 'Northbridge-2026',
};

interface DemoBooking {
  days: number; createdDaysAgo: number; ride: 'Q' | 'H'; company: string; vehicle: string; pickup: string; dropoff?: string;
  time: string; returnDays?: number; returnTime?: string; hours?: number; flight?: string; pence: number; card?: boolean;
  passengers: number; luggages: number; meetAndGreet?: boolean; stops?: { address: string; postcode: string }[]; info?: string;
  /** Issue 44: paid on Northbridge Consulting's account, with its fields; `lastMonthDay` dates it in the month before. */
  onAccount?: { label: string; value: string }[]; lastMonthDay?: number; status?: 'completed';
}

/** The demo passenger's company, which pays monthly on one invoice (issue 44; README "Accounts"). */
export const DEMO_ACCOUNT = {
  name: 'Northbridge Consulting', address: '40 Bank Street, London E14 5NR', billing_email: 'accounts@northbridge-consulting.co.uk',
  vat_number: 'GB 284 1190 57', terms_days: 30, credit_limit_pence: 500_000,
  fields: [
    { label: 'PO number', required: true, options: [] as string[] },
    { label: 'Cost centre', required: false, options: ['Consulting', 'Sales', 'Operations', 'Finance'] },
  ],
};

const BOOKINGS: DemoBooking[] = [
  { days: 0, lastMonthDay: 10, createdDaysAgo: 40, ride: 'Q', company: 'Albion Executive Cars', vehicle: 'Executive Saloon',
    pickup: "King's Cross Station, Euston Road, London N1 9AL", dropoff: 'Canary Wharf, One Canada Square, London E14 5AB', time: '08:00',
    pence: 6850, passengers: 1, luggages: 1, status: 'completed', onAccount: [{ label: 'PO number', value: 'PO-4471' }, { label: 'Cost centre', value: 'Consulting' }] },
  { days: -30, createdDaysAgo: 33, ride: 'H', company: 'Albion Executive Cars', vehicle: 'Executive MPV', pickup: 'Canary Wharf, One Canada Square, London E14 5AB',
    time: '08:30', hours: 6, pence: 39000, card: true, passengers: 5, luggages: 2, info: 'Client roadshow: City, then Mayfair.' },
  { days: -12, createdDaysAgo: 15, ride: 'Q', company: 'Albion Executive Cars', vehicle: 'Executive Saloon', pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA',
    dropoff: 'Canary Wharf, One Canada Square, London E14 5AB', time: '07:15', flight: 'BA 0283', pence: 11240, passengers: 1, luggages: 1, meetAndGreet: true },
  { days: 6, createdDaysAgo: 1, ride: 'Q', company: 'Thames Valley Chauffeurs', vehicle: 'Saloon', pickup: 'Paddington Station, Praed Street, London W2 1HQ',
    dropoff: 'Reading Station, Station Approach, Reading RG1 1LZ', time: '09:00', returnDays: 7, returnTime: '17:30', pence: 18460, passengers: 2, luggages: 0,
    stops: [{ address: 'Slough Station, Brunel Way, Slough', postcode: 'SL1 1XW' }] },
  { days: 14, createdDaysAgo: 0, ride: 'H', company: 'Metro Cars London', vehicle: 'Saloon', pickup: "King's Cross Station, Euston Road, London N1 9AL",
    time: '13:45', hours: 4, pence: 12800, passengers: 3, luggages: 2 },
];

/** The bookings of the demo passenger of a prepared database, added to it when it is copied into a new data folder. */
export async function addDemoBookings(db: Pick<Db, 'transaction'>): Promise<void> {
  await db.transaction(async (tx) => {
    const [passenger] = await tx.query<{ id: number }>('SELECT id FROM passengers WHERE email = $1', [DEMO_CORPORATE.email]);
    if (passenger) await seedDemoBookings(tx, passenger.id);
  });
}

const shiftDays = (date: string, days: number) => {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};

/** The demo passenger and, unless `bookings` is false (the prepared demo database, demoImage.ts), their bookings. */
export async function seedCorporatePassenger(tx: Queryable, passwordHash: string, bookings = true): Promise<void> {
  const [{ id }] = await tx.query<{ id: number }>(
    'INSERT INTO passengers (name, email, phone, password_hash) VALUES ($1, $2, $3, $4) RETURNING id',
    [DEMO_CORPORATE.name, DEMO_CORPORATE.email, DEMO_CORPORATE.phone, passwordHash]);
  const a = DEMO_ACCOUNT;
  const [{ id: accountId }] = await tx.query<{ id: number }>(
    `INSERT INTO accounts (name, address, billing_email, vat_number, terms_days, credit_limit_pence) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [a.name, a.address, a.billing_email, a.vat_number, a.terms_days, a.credit_limit_pence]);
  for (const [position, f] of a.fields.entries()) {
    await tx.query('INSERT INTO account_fields (account_id, label, required, options, position) VALUES ($1, $2, $3, $4, $5)',
      [accountId, f.label, f.required, JSON.stringify(f.options), position]);
  }
  await tx.query('UPDATE passengers SET account_id = $1 WHERE id = $2', [accountId, id]);
  if (bookings) await seedDemoBookings(tx, id);
}

/** The demo passenger's bookings, dated from today: added when a database is made, never kept in a prepared one. */
export async function seedDemoBookings(tx: Queryable, id: number): Promise<void> {
  const today = ukToday();
  for (const b of BOOKINGS) {
    const date = b.lastMonthDay ? shiftDays(`${previousMonth(today).start.slice(0, 8)}01`, b.lastMonthDay - 1) : shiftDays(today, b.days);
    const returnDate = b.returnDays === undefined ? null : shiftDays(today, b.returnDays);
    const isReturn = returnDate !== null;
    const amount = (b.pence / 100).toFixed(2);
    const [{ id: bookingId }] = await tx.query<{ id: number }>(
      `INSERT INTO bookings (booking_number, ride_type, booking_type, company_id, vehicle_type_id, passenger_id, registration_mode,
         pick_up_address, drop_off_address, pick_up_date, pick_up_time, return_date, return_time, hourly_duration, flight_no,
         vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown, payment_method, payment_status, pickup_at, created_at,
         status, account_id, account_fields, booked_via)
       VALUES ($1, $2, $3, (SELECT id FROM companies WHERE company_name = $4), (SELECT id FROM vehicle_types WHERE category_name = $5),
         $6, 'existing_client', $7, $8, $9::date, $10, $11::date, $12, $13, $14, 1, $15, $15, $16, $17, $18,
         ($9::text || ' ' || $10::text)::timestamp AT TIME ZONE 'Europe/London', now() - make_interval(days => $19),
         $20, (SELECT account_id FROM passengers WHERE id = $6 AND $21::jsonb IS NOT NULL), $21::jsonb, 'account')
       RETURNING id`,
      [newBookingNumber(), b.ride, b.ride === 'Q' ? 'milleage' : 'hourly', b.company, b.vehicle, id, b.pickup, b.dropoff ?? null,
        date, b.time, returnDate, isReturn ? b.returnTime : null, b.hours ? `${b.hours}hour` : null, b.flight ?? null, b.pence,
        JSON.stringify({ currency: '£', final_price: amount, lines: [{ label: b.ride === 'Q' ? 'Journey fare' : `${b.hours} hours' hire`, amount }] }),
        b.onAccount ? 'account' : b.card ? 'card' : 'car', b.onAccount ? 'on_account' : b.card ? 'paid' : 'due_in_car', b.createdDaysAgo,
        b.status ?? 'confirmed', b.onAccount ? JSON.stringify(b.onAccount) : null]);
    await tx.query(
      `INSERT INTO booking_details (booking_id, meet_and_greet, luggages, vehicle_qty) VALUES ($1, $2, $3, 1)`,
      [bookingId, b.meetAndGreet ? 'yes' : 'no', b.luggages]);
    for (const [i, s] of (b.stops ?? []).entries()) {
      await tx.query('INSERT INTO booking_stops (booking_id, position, stop_address, stop_post_code) VALUES ($1, $2, $3, $4)',
        [bookingId, i, s.address, s.postcode]);
    }
    await tx.query(
      `INSERT INTO booking_passengers (booking_id, passenger_id, passenger_name, passenger_email, passenger_contact_no, total_passengers, additional_info)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [bookingId, id, DEMO_CORPORATE.name, DEMO_CORPORATE.email, DEMO_CORPORATE.phone, b.passengers, b.info ?? '']);
  }
}
