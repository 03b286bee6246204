// Operator data changes: settings, companies, fleet, rates and known places.
// The demo seed and `npm run admin` both go through these functions.
import type { Queryable } from '../db/index';
import { referenceDataChanged } from '../reference/referenceData';

/** Every write here changes what prices are made of: the in-memory copy is dropped. */
async function change<T = Record<string, unknown>>(db: Queryable, sql: string, params: unknown[]): Promise<T[]> {
  const rows = await db.query<T>(sql, params);
  referenceDataChanged();
  return rows;
}

export async function setSetting(db: Queryable, name: string, value: string): Promise<void> {
  await change(db,
    `INSERT INTO settings (setting_name, setting_value) VALUES ($1, $2)
     ON CONFLICT (setting_name) DO UPDATE SET setting_value = EXCLUDED.setting_value`,
    [name, value],
  );
}

export interface CompanyInput { company_name: string; contact_phone?: string; contact_email?: string; address?: string }

export async function upsertCompany(db: Queryable, c: CompanyInput): Promise<number> {
  const [row] = await change<{ id: number }>(db,
    `INSERT INTO companies (company_name, contact_phone, contact_email, address) VALUES ($1, $2, $3, $4)
     ON CONFLICT (company_name) DO UPDATE SET contact_phone = EXCLUDED.contact_phone,
       contact_email = EXCLUDED.contact_email, address = EXCLUDED.address
     RETURNING id`,
    [c.company_name, c.contact_phone ?? '', c.contact_email ?? '', c.address ?? ''],
  );
  return row.id;
}

export interface VehicleTypeInput {
  category_name: string; seats: number; luggage: number; hand_luggage: number; image: string; sort_order?: number;
}

export async function upsertVehicleType(db: Queryable, v: VehicleTypeInput): Promise<number> {
  const [row] = await change<{ id: number }>(db,
    `INSERT INTO vehicle_types (category_name, seats, luggage, hand_luggage, image, sort_order)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (category_name) DO UPDATE SET seats = EXCLUDED.seats, luggage = EXCLUDED.luggage,
       hand_luggage = EXCLUDED.hand_luggage, image = EXCLUDED.image, sort_order = EXCLUDED.sort_order
     RETURNING id`,
    [v.category_name, v.seats, v.luggage, v.hand_luggage, v.image, v.sort_order ?? 0],
  );
  return row.id;
}

export interface RateInput {
  company_id: number; vehicle_type_id: number;
  base_fare_pence: number; minimum_fare_pence: number; hourly_rate_pence: number;
  /** Per-mile rates by the mile they start at; the first band starts at 0. */
  bands: { from_miles: number; per_mile_pence: number }[];
}

export async function setRate(db: Queryable, r: RateInput): Promise<void> {
  if (!r.bands.some((b) => b.from_miles === 0)) throw new Error('The first distance band must start at 0 miles');
  await change(db,
    `INSERT INTO vehicle_rates (company_id, vehicle_type_id, base_fare_pence, minimum_fare_pence, hourly_rate_pence)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (company_id, vehicle_type_id) DO UPDATE SET base_fare_pence = EXCLUDED.base_fare_pence,
       minimum_fare_pence = EXCLUDED.minimum_fare_pence, hourly_rate_pence = EXCLUDED.hourly_rate_pence`,
    [r.company_id, r.vehicle_type_id, r.base_fare_pence, r.minimum_fare_pence, r.hourly_rate_pence],
  );
  await change(db, 'DELETE FROM vehicle_rate_bands WHERE company_id = $1 AND vehicle_type_id = $2', [r.company_id, r.vehicle_type_id]);
  for (const b of r.bands) {
    await change(db,
      'INSERT INTO vehicle_rate_bands (company_id, vehicle_type_id, from_miles, per_mile_pence) VALUES ($1, $2, $3, $4)',
      [r.company_id, r.vehicle_type_id, b.from_miles, b.per_mile_pence],
    );
  }
}

export interface AddressInput { address: string; postcode?: string; lat: number; lon: number; kind?: string }

export async function addAddress(db: Queryable, a: AddressInput): Promise<number> {
  const [row] = await change<{ id: number }>(db,
    `INSERT INTO addresses (address, postcode, lat, lon, kind) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (address) DO UPDATE SET postcode = EXCLUDED.postcode, lat = EXCLUDED.lat, lon = EXCLUDED.lon, kind = EXCLUDED.kind
     RETURNING id`,
    [a.address, a.postcode ?? '', a.lat, a.lon, a.kind ?? 'place'],
  );
  return row.id;
}

export async function banAddress(db: Queryable, pattern: string, reason = ''): Promise<void> {
  if (!pattern.trim()) throw new Error('A banned address needs some text');
  await change(db,
    `INSERT INTO banned_addresses (pattern, reason) VALUES ($1, $2)
     ON CONFLICT (pattern) DO UPDATE SET reason = EXCLUDED.reason`, [pattern.trim(), reason],
  );
}

export async function unbanAddress(db: Queryable, pattern: string): Promise<boolean> {
  return (await change(db, 'DELETE FROM banned_addresses WHERE pattern = $1 RETURNING id', [pattern.trim()])).length > 0;
}

export async function setCompanyActive(db: Queryable, companyName: string, active: boolean): Promise<boolean> {
  return (await change(db, 'UPDATE companies SET active = $2 WHERE company_name = $1 RETURNING id', [companyName, active])).length > 0;
}

export async function recentBookings(db: Queryable, limit = 20) {
  return db.query<{
    booking_number: string; created_at: string; pick_up_date: string; pick_up_time: string; pick_up_address: string;
    drop_off_address: string | null; company_name: string; category_name: string; total: string; passenger_name: string;
    passenger_email: string; payment_method: string; status: string; payment_status: string; payment_id: string | null;
  }>(
    `SELECT b.booking_number, to_char(b.created_at AT TIME ZONE 'Europe/London', 'YYYY-MM-DD HH24:MI') AS created_at,
            to_char(b.pick_up_date, 'YYYY-MM-DD') AS pick_up_date, b.pick_up_time, b.pick_up_address, b.drop_off_address,
            c.company_name, v.category_name, to_char(b.total_booking_amount_pence / 100.0, 'FM999999990.00') AS total,
            p.passenger_name, p.passenger_email, b.payment_method, b.status,
            -- A payment through the local test gateway or Stripe's test mode took no real money: it says so (issue 24).
            CASE WHEN b.payment_livemode = false THEN b.payment_status || ' (test)' ELSE b.payment_status END AS payment_status,
            b.payment_id
       FROM bookings b JOIN companies c ON c.id = b.company_id JOIN vehicle_types v ON v.id = b.vehicle_type_id
       LEFT JOIN booking_passengers p ON p.booking_id = b.id
      ORDER BY b.created_at DESC, b.id DESC LIMIT $1`, [limit],
  );
}
