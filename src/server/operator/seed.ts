// The demo operator: what a fresh `npm start` shows. Written through the same
// functions as `npm run admin`, and only into an empty database. A server for
// customers (NODE_ENV=production) gets its reference data alone (settings,
// companies, fleet, rates, places), never the demo's people (staff, passenger,
// drivers and cars) or bookings: their passwords are in README (issue 39,
// decision 47).
import type { Db } from '../db/index';
import { addAddress, setRate, setSetting, upsertCompany, upsertVehicleType } from './operator';
import { DEMO_ADDRESSES } from './seedAddresses';
import { DEMO_CORPORATE, seedCorporatePassenger } from './seedCorporate';
import { seedDrivers } from './seedDrivers';
import { hashPassword } from '../auth/passwords';
import { DEFAULT_PASSWORD_HASH_COST } from '../config';

export const DEMO_SETTINGS: Record<string, string> = {
  Company_Name: 'Albion Executive Cars',
  Company_Contact_Info: '+44 20 7946 0321',
  Company_Email: 'bookings@albion-executive.co.uk',
  Company_Address: '27 Old Gloucester Street, London WC1N 3AX',
  FROM_EMAIL: 'bookings@albion-executive.co.uk',
  SHOW_NAVBAR_PAGE: 'enable',
  SHOW_FOOTER_PAGE: 'enable',
  NAVBAR_OUR_FLEET_PAGE: 'enable',
  NAVBAR_URGENT_BOOKING_PAGE: 'enable',
  CORPORATE_LOGIN: 'enable',
  GOOGLE_API_KEY: '',
  // Issue 41: no map tiles in the demo (nothing here can reach a tile server): the car's distance in words.
  MAP_TILE_URL: '',
  MAP_TILE_ATTRIBUTION: '',
  IS_QUOTATION: 'disable',
  HOURLY_RATE_STATUS: 'disable',
  MULTIPLE_OPERATORS: 'enable',
  MULTIPLE_PRICES: 'enable',
  CHEAPEST_COMPANY_PRICE: 'disable',
  SHOW_COMPANY_FLEET_VIEW_SECTION: 'enable',
  SHOW_COMPANY_CONTACT_SECTION: 'enable',
  SHOW_POPULAR_LOCATION_PAGE: 'enable',
  GRACE_TIME: '120',
  MEET_AND_GREET: '15',
  BABY_PRICE_PER_SEAT: '10',
  BOOSTER_PRICE_PER_SEAT: '8',
  WHEEL_CHAIR: '20',
  SPECIAL_LUGGAGE_PER_PRICE: '10',
  PRICE_PER_FIVE_WAITING_MIN: '3',
  CURRENCY: '£',
  GUEST_LOGIN: 'enable',
  SHOWPAYINCAR: 'yes',
  SHOWCARD: 'yes',
  ROUND_OFF: 'yes',
};

/** The demo operator's licence, printed at the top of its booking records (issue 43); only where a demo is wanted. */
export const DEMO_LICENCE = { OPERATOR_LICENCE_NUMBER: '0041287', OPERATOR_LICENSING_AUTHORITY: 'Transport for London' };

const COMPANIES = [
  { company_name: 'Albion Executive Cars', contact_phone: '+44 20 7946 0321', contact_email: 'bookings@albion-executive.co.uk', address: '27 Old Gloucester Street, London WC1N 3AX' },
  { company_name: 'Thames Valley Chauffeurs', contact_phone: '+44 118 496 0742', contact_email: 'office@thamesvalleychauffeurs.co.uk', address: '4 Kings Road, Reading RG1 3AA' },
  { company_name: 'Metro Cars London', contact_phone: '+44 20 7946 0958', contact_email: 'dispatch@metrocars.london', address: '112 Commercial Road, London E1 1NL' },
];

const VEHICLE_TYPES = [
  { category_name: 'Saloon', seats: 4, luggage: 2, hand_luggage: 2, image: '/storage/vehicles/saloon.svg', sort_order: 1 },
  { category_name: 'Estate', seats: 4, luggage: 3, hand_luggage: 3, image: '/storage/vehicles/estate.svg', sort_order: 2 },
  { category_name: 'Executive Saloon', seats: 3, luggage: 2, hand_luggage: 2, image: '/storage/vehicles/executive.svg', sort_order: 3 },
  { category_name: 'MPV', seats: 6, luggage: 4, hand_luggage: 4, image: '/storage/vehicles/mpv.svg', sort_order: 4 },
  { category_name: 'Executive MPV', seats: 7, luggage: 6, hand_luggage: 6, image: '/storage/vehicles/executive-mpv.svg', sort_order: 5 },
  { category_name: '8 Seater Minibus', seats: 8, luggage: 8, hand_luggage: 8, image: '/storage/vehicles/minibus.svg', sort_order: 6 },
];

/** [base fare, per mile to 10 miles, per mile after 10 miles, minimum fare, per hour], all pence. */
type RateRow = [number, number, number, number, number];
const RATES: Record<string, Record<string, RateRow>> = {
  'Albion Executive Cars': {
    'Saloon': [400, 260, 185, 2200, 3500],
    'Estate': [450, 280, 200, 2500, 3800],
    'Executive Saloon': [800, 420, 300, 4500, 5500],
    'MPV': [600, 330, 235, 3200, 4500],
    'Executive MPV': [1000, 480, 340, 5500, 6500],
    '8 Seater Minibus': [900, 400, 290, 5000, 6000],
  },
  'Thames Valley Chauffeurs': {
    'Saloon': [350, 270, 175, 2400, 3400],
    'Executive Saloon': [750, 440, 285, 4800, 5200],
    'MPV': [550, 340, 225, 3400, 4400],
    '8 Seater Minibus': [850, 420, 280, 5200, 5800],
    // Offered without a price: its card says Contact Us (SPEC 2) and leads to the quote form.
    'Executive MPV': [0, 0, 0, 0, 0],
  },
  'Metro Cars London': {
    'Saloon': [300, 240, 190, 1800, 3200],
    'Estate': [350, 255, 205, 2100, 3500],
    'MPV': [500, 310, 245, 2900, 4200],
  },
};

/** The demo office's staff (README gives their sign-ins): the operator's administrator, and a partner company's desk. */
export const DEMO_STAFF = [
  { email: 'ops@albion-executive.co.uk', name: 'Priya Shah', role: 'admin', company: null, password: 'Albion-Desk-2026' },
  { email: 'dispatch@metrocars.london', name: 'Tom Okafor', role: 'company', company: 'Metro Cars London', password: 'Metro-Desk-2026' },
] as const;

export interface SeedOptions {
  /** Without it, the demo passenger has none yet (the prepared demo database, demoImage.ts, adds them when copied). */
  bookings?: boolean;
  /** The demo's staff and corporate passenger (and so its bookings); false for a server that serves customers. */
  people?: boolean;
}

/** Seeds an empty database; `hashCost` is the scrypt cost of the demo sign-ins' passwords. */
export async function seedIfEmpty(db: Db, hashCost = DEFAULT_PASSWORD_HASH_COST, { bookings = true, people = true }: SeedOptions = {}): Promise<boolean> {
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies');
  if (n > 0) return false;
  // Hashed before the transaction: scrypt is slow, and the embedded database waits for a transaction.
  const corporateHash = people ? await hashPassword(DEMO_CORPORATE.password, hashCost) : '';
  const staffHashes = people ? await Promise.all(DEMO_STAFF.map((s) => hashPassword(s.password, hashCost))) : [];
  return db.transaction(async (tx) => {
    // Servers starting together on one PostgreSQL take turns, and only the first finds it empty.
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(724002)');
    const [{ n: now }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM companies');
    if (now > 0) return false;
    for (const [name, value] of Object.entries(DEMO_SETTINGS)) await setSetting(tx, name, value);
    const companyIds = new Map<string, number>();
    for (const c of COMPANIES) companyIds.set(c.company_name, await upsertCompany(tx, c));
    const vehicleIds = new Map<string, number>();
    for (const v of VEHICLE_TYPES) vehicleIds.set(v.category_name, await upsertVehicleType(tx, v));
    for (const [company, rates] of Object.entries(RATES)) {
      for (const [vehicle, [base, near, far, minimum, hourly]] of Object.entries(rates)) {
        await setRate(tx, {
          company_id: companyIds.get(company)!, vehicle_type_id: vehicleIds.get(vehicle)!,
          base_fare_pence: base, minimum_fare_pence: minimum, hourly_rate_pence: hourly,
          bands: [{ from_miles: 0, per_mile_pence: near }, { from_miles: 10, per_mile_pence: far }],
        });
      }
    }
    for (const a of DEMO_ADDRESSES) await addAddress(tx, a);
    if (!people) return true;
    // A demo's licence (a made-up number): a server for customers prints its own, set in Operator data.
    for (const [name, value] of Object.entries(DEMO_LICENCE)) await setSetting(tx, name, value);
    await seedCorporatePassenger(tx, corporateHash, bookings);
    for (const [i, s] of DEMO_STAFF.entries()) {
      await tx.query('INSERT INTO staff (email, name, role, company_id, password_hash) VALUES ($1, $2, $3, $4, $5)',
        [s.email, s.name, s.role, s.company ? companyIds.get(s.company)! : null, staffHashes[i]]);
    }
    await seedDrivers(tx, companyIds, vehicleIds);
    return true;
  });
}
