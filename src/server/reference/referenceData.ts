// The operator's reference data (settings, rates, known places, banned
// addresses) read on every price call, kept in memory. A change made through
// operator.ts in this process shows at once; a change made by another process
// (npm run admin against PostgreSQL) shows within REFERENCE_TTL_MS.
import type { Queryable } from '../db/index';
import { settingsFromList, type Settings } from '../../domain/settings';

export const REFERENCE_TTL_MS = 5000;
const SETTINGS_SQL = 'SELECT setting_name, setting_value FROM settings';
let generation = 0;

/** operator.ts calls this after every change. */
export function referenceDataChanged(): void {
  generation++;
}

export interface KnownPlace { address: string; postcode: string; lat: number; lon: number }

export interface OfferRow {
  company_id: number; company_name: string;
  /** Where the company hears of its bookings (issue 26); '' when it has none. */
  company_email: string;
  vehicle_id: number; vehicle_type: string; vehicle_image: string;
  max_seat: number; luggage: number; small_luggage: number; hourly_rate_pence: number;
  base_fare_pence: number; minimum_fare_pence: number;
  bands: { from_miles: number; per_mile_pence: number }[];
}

export interface Reference {
  settings: Settings;
  offers: OfferRow[];
  banned: string[];
  placesByAddress: Map<string, KnownPlace>;
  placesByPostcode: Map<string, KnownPlace>;
}

async function load(db: Queryable): Promise<Reference> {
  const [settings, rows, bands, banned, places] = await Promise.all([
    db.query<{ setting_name: string; setting_value: string }>(SETTINGS_SQL),
    db.query<Omit<OfferRow, 'bands'>>(
      `SELECT c.id AS company_id, c.company_name, c.contact_email AS company_email, v.id AS vehicle_id, v.category_name AS vehicle_type,
              v.image AS vehicle_image, v.seats AS max_seat, v.luggage, v.hand_luggage AS small_luggage,
              r.base_fare_pence, r.minimum_fare_pence, r.hourly_rate_pence
         FROM vehicle_rates r
         JOIN companies c ON c.id = r.company_id AND c.active
         JOIN vehicle_types v ON v.id = r.vehicle_type_id
        ORDER BY v.sort_order, v.id, c.company_name`),
    db.query<{ company_id: number; vehicle_type_id: number; from_miles: number; per_mile_pence: number }>(
      'SELECT company_id, vehicle_type_id, from_miles, per_mile_pence FROM vehicle_rate_bands ORDER BY from_miles'),
    db.query<{ pattern: string }>('SELECT pattern FROM banned_addresses'),
    db.query<KnownPlace>('SELECT address, postcode, lat, lon FROM addresses ORDER BY id'),
  ]);
  const placesByAddress = new Map<string, KnownPlace>();
  const placesByPostcode = new Map<string, KnownPlace>();
  for (const p of places) {
    placesByAddress.set(p.address.trim().toLowerCase(), p);
    const pc = p.postcode.replace(/\s+/g, '').toUpperCase();
    if (pc && !placesByPostcode.has(pc)) placesByPostcode.set(pc, p);
  }
  return {
    settings: settingsFromList(settings),
    offers: rows.map((o) => ({
      ...o, bands: bands.filter((b) => b.company_id === o.company_id && b.vehicle_type_id === o.vehicle_id)
        .map(({ from_miles, per_mile_pence }) => ({ from_miles, per_mile_pence })),
    })),
    banned: banned.map((b) => b.pattern),
    placesByAddress,
    placesByPostcode,
  };
}

interface Entry<T> { at: number; generation: number; value: Promise<T> }
const cache = new WeakMap<object, Entry<Reference>>();
const settingsCache = new WeakMap<object, Entry<Settings>>();
const isFresh = <T>(entry: Entry<T> | undefined): entry is Entry<T> =>
  entry !== undefined && entry.generation === generation && Date.now() - entry.at < REFERENCE_TTL_MS;

function remember<T>(store: WeakMap<object, Entry<T>>, db: Queryable, value: Promise<T>): Promise<T> {
  store.set(db, { at: Date.now(), generation, value });
  value.catch(() => store.delete(db));
  return value;
}

export function reference(db: Queryable): Promise<Reference> {
  const hit = cache.get(db);
  return isFresh(hit) ? hit.value : remember(cache, db, load(db));
}

/**
 * The settings alone, as fresh as the reference data: taken from it when it is loaded, else one read of the settings
 * table, so a page (its security policy, the settings it carries) never waits for the rates and places.
 */
export function referenceSettings(db: Queryable): Promise<Settings> {
  const full = cache.get(db);
  if (isFresh(full)) return full.value.then((r) => r.settings);
  const hit = settingsCache.get(db);
  if (isFresh(hit)) return hit.value;
  return remember(settingsCache, db, db.query<{ setting_name: string; setting_value: string }>(SETTINGS_SQL).then(settingsFromList));
}
