// The operator's data as the office changes it from the console (issue 26 'Operator data'): settings, companies,
// the fleet and its rates, known and banned places, and staff (administrators); the drivers and cars on record
// (issue 41: every member of staff, a company's staff their own company's). Every change goes through the same
// functions as `npm run admin` (./operator.ts, ./staff.ts, ./fleetRecords.ts) and is written to the audit log with the
// values before and after.
import type { Db, Queryable } from '../db/index';
import { DomainError } from '../errors';
import { isEmail } from '../../domain/fields';
import { poundsToPence, penceToPounds } from '../../domain/money';
import { SETTINGS_CATALOGUE, settingInfo, settingProblem } from '../../domain/settingsCatalogue';
import { addAddress, banAddress, setCompanyActive, setRate, setSetting, unbanAddress, upsertCompany, upsertVehicleType } from './operator';
import { addStaff, listStaff, removeStaff, setStaffDbs, type Staff } from './staff';
import { audit } from './desk';
import { mayChange, type DataChange, type DataSection } from '../../domain/operatorData';
import { carDocuments, driverDocuments, expiryNotes } from '../../domain/fleetRecords';
import { ukToday } from '../../domain/ukTime';
import { listCars, listDrivers, saveCar, saveDriver } from './fleetRecords';

export { isDataSection, type DataChange, type DataSection } from '../../domain/operatorData';

/**
 * One part of the operator data, as `scope` sees it (a company's staff: their company's records and company only).
 * Drivers and cars come with their documents' flags on `now`'s UK date (expired, or expiring within 30 days).
 */
export async function dataSection(db: Queryable, section: DataSection, scope: number | null = null, now = new Date()): Promise<unknown> {
  const companies = () => db.query<{ id: number; company_name: string }>(
    'SELECT id, company_name FROM companies WHERE $1::int IS NULL OR id = $1 ORDER BY company_name', [scope]);
  const today = ukToday(now);
  switch (section) {
    case 'drivers': {
      const [drivers, list] = await Promise.all([listDrivers(db, scope), companies()]);
      return { drivers: drivers.map((d) => ({ ...d, notes: expiryNotes(driverDocuments(d), today) })), companies: list };
    }
    case 'cars': {
      const [cars, list, types] = await Promise.all([
        listCars(db, scope), companies(), db.query('SELECT id, category_name FROM vehicle_types ORDER BY sort_order, id'),
      ]);
      return { cars: cars.map((c) => ({ ...c, notes: expiryNotes(carDocuments(c), today) })), companies: list, vehicle_types: types };
    }
    case 'settings': {
      const rows = await db.query<{ setting_name: string; setting_value: string }>('SELECT setting_name, setting_value FROM settings');
      const values = new Map(rows.map((r) => [r.setting_name, r.setting_value]));
      return SETTINGS_CATALOGUE.map((info) => ({ ...info, value: values.get(info.name) ?? '' }));
    }
    case 'companies':
      return db.query('SELECT id, company_name, contact_phone, contact_email, address, active FROM companies ORDER BY company_name');
    case 'fleet': {
      const vehicles = await db.query('SELECT id, category_name, seats, luggage, hand_luggage, sort_order FROM vehicle_types ORDER BY sort_order, id');
      const rates = await db.query<{ company_id: number; vehicle_type_id: number; company_name: string; category_name: string; base: number; minimum: number; hourly: number; bands: { from_miles: number; per_mile_pence: number }[] }>(
        `SELECT r.company_id, r.vehicle_type_id, c.company_name, v.category_name, r.base_fare_pence AS base, r.minimum_fare_pence AS minimum,
                r.hourly_rate_pence AS hourly,
                (SELECT coalesce(json_agg(json_build_object('from_miles', b.from_miles, 'per_mile_pence', b.per_mile_pence) ORDER BY b.from_miles), '[]'::json)
                   FROM vehicle_rate_bands b WHERE b.company_id = r.company_id AND b.vehicle_type_id = r.vehicle_type_id) AS bands
           FROM vehicle_rates r JOIN companies c ON c.id = r.company_id JOIN vehicle_types v ON v.id = r.vehicle_type_id
          ORDER BY c.company_name, v.sort_order`);
      return {
        vehicles,
        rates: rates.map((r) => ({
          company_id: r.company_id, vehicle_type_id: r.vehicle_type_id, company_name: r.company_name, category_name: r.category_name,
          base: penceToPounds(r.base), minimum: penceToPounds(r.minimum), hourly: penceToPounds(r.hourly),
          bands: r.bands.map((b) => ({ from_miles: b.from_miles, per_mile: penceToPounds(b.per_mile_pence) })),
        })),
      };
    }
    case 'places': {
      const [known, banned] = await Promise.all([
        db.query('SELECT id, address, postcode, lat, lon, kind FROM addresses ORDER BY address'),
        db.query('SELECT pattern, reason FROM banned_addresses ORDER BY pattern'),
      ]);
      return { known, banned };
    }
    case 'staff':
      return listStaff(db);
    // The last 200 changes made from the console, newest first.
    case 'audit':
      return db.query(
        `SELECT a.id, to_char(a.created_at AT TIME ZONE 'Europe/London', 'DD-MM-YYYY HH24:MI:SS') AS at, a.staff_name, a.action, a.subject,
                b.booking_number, a.before, a.after
           FROM audit_log a LEFT JOIN bookings b ON b.id = a.booking_id ORDER BY a.id DESC LIMIT 200`);
  }
}

const bad = (field: string, message: string): never => { throw new DomainError('invalid', message, field); };
/** A record's id when a change names one (a new record has none). */
const recordId = (v: unknown): number | null => {
  if (v === undefined || v === null || v === '') return null;
  const id = Number(v);
  return Number.isInteger(id) && id > 0 && id < 2 ** 31 ? id : bad('id', 'This record is not on the list: reload the page.');
};
const text = (v: unknown, field: string, label: string, max = 200): string => {
  const t = typeof v === 'string' ? v.trim() : '';
  if (!t) bad(field, `Enter the ${label}.`);
  if (t.length > max) bad(field, `The ${label} is at most ${max} characters.`);
  return t;
};
const optional = (v: unknown, max = 200): string => (typeof v === 'string' ? v.trim().slice(0, max) : '');
const count = (v: unknown, field: string, label: string, min = 0, max = 99): number => {
  const n = Number(typeof v === 'string' ? v.trim() : v);
  if (!Number.isInteger(n) || n < min || n > max) bad(field, `${label}: a whole number from ${min} to ${max}.`);
  return n;
};
const pounds = (v: unknown, field: string, label: string): number => {
  const t = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  if (!/^\d{1,5}(\.\d{1,2})?$/.test(t)) bad(field, `${label}: an amount in pounds, like 12.50.`);
  return poundsToPence(t);
};

/**
 * Applies one change for a member of staff who may make it (mayChange), audited; what it answers (a new member of
 * staff's password, once). `scope` limits a company's staff to their company's drivers and cars.
 */
export async function changeData(
  db: Db, staff: Staff, change: DataChange, hashCost: number, scope: number | null = null, now = new Date(),
): Promise<{ done: string; password?: string }> {
  const c = (change ?? {}) as DataChange;
  if (!mayChange(staff.role, c.kind)) throw new DomainError('forbidden', 'Only an administrator can do this.');
  switch (c.kind) {
    case 'driver': {
      const id = recordId(c.id);
      const { name } = await db.transaction(async (tx) => {
        const saved = await saveDriver(tx, scope, id, c);
        await audit(tx, staff, saved.before ? 'Driver record changed' : 'Driver added', null, `${saved.driver.name}, ${saved.driver.licence_number}`,
          saved.before, saved.driver);
        return saved.driver;
      });
      return { done: `${name} saved.` };
    }
    case 'car': {
      const id = recordId(c.id);
      const { registration } = await db.transaction(async (tx) => {
        const saved = await saveCar(tx, scope, id, c);
        await audit(tx, staff, saved.before ? 'Vehicle record changed' : 'Vehicle added', null,
          `${saved.car.registration}, ${saved.car.make} ${saved.car.model}`, saved.before, saved.car);
        return saved.car;
      });
      return { done: `${registration} saved.` };
    }
    case 'setting': {
      const info = settingInfo(String(c.name));
      if (!info) return bad('name', 'This is not a setting the console changes.');
      const value = typeof c.value === 'string' ? c.value.trim() : '';
      const problem = settingProblem(info, value);
      if (problem) bad(info.name, problem);
      const [before] = await db.query<{ setting_value: string }>('SELECT setting_value FROM settings WHERE setting_name = $1', [info.name]);
      await db.transaction(async (tx) => {
        await setSetting(tx, info.name, value);
        await audit(tx, staff, 'Setting changed', null, info.name, before?.setting_value ?? null, value);
      });
      return { done: `${info.label} saved.` };
    }
    case 'company': {
      const company = {
        company_name: text(c.company_name, 'company_name', 'company name', 120), contact_phone: optional(c.contact_phone, 40),
        contact_email: optional(c.contact_email, 254), address: optional(c.address, 300),
      };
      if (company.contact_email && !isEmail(company.contact_email)) bad('contact_email', 'Enter a valid e-mail address for the company.');
      const [before] = await db.query('SELECT company_name, contact_phone, contact_email, address FROM companies WHERE company_name = $1', [company.company_name]);
      await db.transaction(async (tx) => {
        await upsertCompany(tx, company);
        await audit(tx, staff, before ? 'Company changed' : 'Company added', null, company.company_name, before ?? null, company);
      });
      return { done: `${company.company_name} saved.` };
    }
    case 'companyActive': {
      const name = text(c.company_name, 'company_name', 'company name');
      const active = c.active === true;
      await db.transaction(async (tx) => {
        if (!(await setCompanyActive(tx, name, active))) bad('company_name', `No company called "${name}".`);
        await audit(tx, staff, active ? 'Company enabled' : 'Company disabled', null, name, { active: !active }, { active });
      });
      return { done: `${name} ${active ? 'is offered again' : 'is no longer offered'}.` };
    }
    case 'vehicle': {
      const v = {
        category_name: text(c.category_name, 'category_name', 'vehicle type', 80), seats: count(c.seats, 'seats', 'Seats', 1, 60),
        luggage: count(c.luggage, 'luggage', 'Luggage'), hand_luggage: count(c.hand_luggage, 'hand_luggage', 'Hand luggage'),
        sort_order: c.sort_order === undefined || c.sort_order === '' ? 99 : count(c.sort_order, 'sort_order', 'Order', 0, 999),
      };
      const [before] = await db.query<{ image: string }>('SELECT category_name, seats, luggage, hand_luggage, sort_order, image FROM vehicle_types WHERE category_name = $1', [v.category_name]);
      await db.transaction(async (tx) => {
        await upsertVehicleType(tx, { ...v, image: before?.image ?? '/storage/vehicles/saloon.svg' });
        await audit(tx, staff, before ? 'Vehicle type changed' : 'Vehicle type added', null, v.category_name, before ?? null, v);
      });
      return { done: `${v.category_name} saved.` };
    }
    case 'rate': {
      const bands = (Array.isArray(c.bands) ? c.bands : []).filter((b) => String(b?.from_miles ?? '').trim() !== '' || String(b?.per_mile ?? '').trim() !== '')
        .map((b, i) => ({ from_miles: count(b.from_miles, `bands.${i}.from_miles`, 'From mile', 0, 10_000), per_mile_pence: pounds(b.per_mile, `bands.${i}.per_mile`, 'Per mile') }));
      if (!bands.some((b) => b.from_miles === 0)) bad('bands.0.from_miles', 'The first per-mile rate starts at mile 0.');
      if (new Set(bands.map((b) => b.from_miles)).size !== bands.length) bad('bands', 'Each per-mile rate starts at a different mile.');
      const rate = {
        company_id: count(c.company_id, 'company_id', 'Company', 1, 1e9), vehicle_type_id: count(c.vehicle_type_id, 'vehicle_type_id', 'Vehicle type', 1, 1e9),
        base_fare_pence: pounds(c.base, 'base', 'Base fare'), minimum_fare_pence: pounds(c.minimum, 'minimum', 'Minimum fare'),
        hourly_rate_pence: pounds(c.hourly, 'hourly', 'Hourly rate'), bands,
      };
      const [names] = await db.query<{ company_name: string; category_name: string }>(
        'SELECT c.company_name, v.category_name FROM companies c, vehicle_types v WHERE c.id = $1 AND v.id = $2', [rate.company_id, rate.vehicle_type_id]);
      if (!names) bad('company_id', 'Choose a company and a vehicle type.');
      const [before] = await db.query('SELECT base_fare_pence, minimum_fare_pence, hourly_rate_pence FROM vehicle_rates WHERE company_id = $1 AND vehicle_type_id = $2', [rate.company_id, rate.vehicle_type_id]);
      await db.transaction(async (tx) => {
        await setRate(tx, rate);
        await audit(tx, staff, 'Rate set', null, `${names.company_name}, ${names.category_name}`, before ?? null, rate);
      });
      return { done: `Rate saved: ${names.company_name}, ${names.category_name}.` };
    }
    case 'address': {
      const lat = Number(c.lat), lon = Number(c.lon);
      if (!(lat >= 49 && lat <= 61)) bad('lat', 'Latitude: a place in the UK, between 49 and 61.');
      if (!(lon >= -9 && lon <= 2)) bad('lon', 'Longitude: a place in the UK, between -9 and 2.');
      const place = { address: text(c.address, 'address', 'address', 300), postcode: optional(c.postcode, 10).toUpperCase(), lat, lon, kind: optional(c.place_kind, 20) || 'place' };
      await db.transaction(async (tx) => {
        await addAddress(tx, place);
        await audit(tx, staff, 'Place added', null, place.address, null, place);
      });
      return { done: `${place.address} saved.` };
    }
    case 'ban': {
      const pattern = text(c.pattern, 'pattern', 'text to refuse', 200);
      const reason = optional(c.reason, 200);
      await db.transaction(async (tx) => {
        await banAddress(tx, pattern, reason);
        await audit(tx, staff, 'Address banned', null, pattern, null, { pattern, reason });
      });
      return { done: `Pickups, drop-offs and stops containing "${pattern}" are refused.` };
    }
    case 'unban': {
      const pattern = text(c.pattern, 'pattern', 'text', 200);
      await db.transaction(async (tx) => {
        if (!(await unbanAddress(tx, pattern))) bad('pattern', `"${pattern}" is not banned.`);
        await audit(tx, staff, 'Address unbanned', null, pattern, { pattern }, null);
      });
      return { done: `"${pattern}" is no longer refused.` };
    }
    case 'addStaff': {
      const dbs = c.dbs_number?.trim() || c.dbs_seen_on?.trim() ? { dbs_number: c.dbs_number, dbs_seen_on: c.dbs_seen_on } : undefined;
      const { password } = await addStaff(db, {
        email: text(c.email, 'email', 'e-mail', 254), name: text(c.name, 'name', 'name', 80), role: String(c.role ?? ''),
        companyName: optional(c.company, 120) || undefined, dbs,
      }, hashCost, ukToday(now));
      await audit(db, staff, 'Staff added', null, c.email, null, {
        email: c.email, name: c.name, role: c.role, company: c.company ?? null, ...(dbs && { dbs_number: c.dbs_number, dbs_seen_on: c.dbs_seen_on }),
      });
      return { done: `${c.name} can sign in with the password below. It is shown once: give it to them in person or by phone.`, password };
    }
    // The staff register (issue 43): the DBS certificate seen, changed alone (adding staff again sets a new password).
    case 'staffDbs': {
      const email = text(c.email, 'email', 'e-mail', 254);
      const saved = await db.transaction(async (tx) => {
        const done = await setStaffDbs(tx, email, { dbs_number: c.dbs_number, dbs_seen_on: c.dbs_seen_on }, ukToday(now));
        if (!done) return bad('email', `No staff with the e-mail ${email}.`);
        await audit(tx, staff, 'Staff DBS record changed', null, done.email, done.before, done.after);
        return done;
      });
      return { done: saved.after.dbs_number ? `${saved.name}'s DBS certificate is on the register.` : `${saved.name}'s DBS record is cleared.` };
    }
    case 'removeStaff': {
      const email = text(c.email, 'email', 'e-mail', 254);
      if (email.toLowerCase() === staff.email.toLowerCase()) bad('email', 'You cannot remove yourself.');
      if (!(await removeStaff(db, email))) bad('email', `No staff with the e-mail ${email}.`);
      await audit(db, staff, 'Staff removed', null, email, { email }, null);
      return { done: `${email} can no longer sign in.` };
    }
    default:
      return bad('kind', 'Unknown change.');
  }
}
