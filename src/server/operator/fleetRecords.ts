// Drivers and cars on record (issue 41 §1, decision 54): listed, added and changed from the console's Operator data
// (Drivers, Vehicles) and by `npm run admin`. Every member of staff reaches them, a company's staff only their own
// company's: another company's record is not found, and a record cannot be moved to another company by them. The
// form rules and who may drive which booking are the domain's (src/domain/fleetRecords.ts).
import type { Queryable } from '../db/index';
import { DomainError } from '../errors';
import {
  carRecord, carRecordErrors, driverRecord, driverRecordErrors, type CarRecord, type CarRecordInput, type DriverRecord,
  type DriverRecordInput,
} from '../../domain/fleetRecords';

/** A company member's company (null: every company), as scopeOf(staff) gives it. */
type Scope = number | null;

export interface DriverRow extends DriverRecord { id: number; company_name: string }
export interface CarRow extends CarRecord { id: number; company_name: string; category_name: string }

const DRIVER_COLUMNS = `d.id, d.name, d.mobile, d.email, d.licence_number, d.licensing_authority,
  to_char(d.licence_expiry, 'YYYY-MM-DD') AS licence_expiry, d.company_id, c.company_name, d.active`;
const CAR_COLUMNS = `r.id, r.registration, r.make, r.model, r.colour, r.vehicle_type_id, v.category_name, r.passengers, r.suitcases,
  r.wheelchair, r.licence_number, to_char(r.licence_expiry, 'YYYY-MM-DD') AS licence_expiry,
  to_char(r.mot_expiry, 'YYYY-MM-DD') AS mot_expiry, to_char(r.insurance_expiry, 'YYYY-MM-DD') AS insurance_expiry,
  r.company_id, c.company_name, r.active`;

export const listDrivers = (db: Queryable, scope: Scope) => db.query<DriverRow>(
  `SELECT ${DRIVER_COLUMNS} FROM drivers d JOIN companies c ON c.id = d.company_id
    WHERE $1::int IS NULL OR d.company_id = $1 ORDER BY d.active DESC, d.name, d.id`, [scope]);

export const listCars = (db: Queryable, scope: Scope) => db.query<CarRow>(
  `SELECT ${CAR_COLUMNS} FROM cars r JOIN companies c ON c.id = r.company_id JOIN vehicle_types v ON v.id = r.vehicle_type_id
    WHERE $1::int IS NULL OR r.company_id = $1 ORDER BY r.active DESC, r.registration, r.id`, [scope]);

export async function driverById(db: Queryable, scope: Scope, id: number): Promise<DriverRow | null> {
  const [row] = await db.query<DriverRow>(
    `SELECT ${DRIVER_COLUMNS} FROM drivers d JOIN companies c ON c.id = d.company_id WHERE d.id = $1 AND ($2::int IS NULL OR d.company_id = $2)`,
    [id, scope]);
  return row ?? null;
}

export async function carById(db: Queryable, scope: Scope, id: number): Promise<CarRow | null> {
  const [row] = await db.query<CarRow>(
    `SELECT ${CAR_COLUMNS} FROM cars r JOIN companies c ON c.id = r.company_id JOIN vehicle_types v ON v.id = r.vehicle_type_id
      WHERE r.id = $1 AND ($2::int IS NULL OR r.company_id = $2)`, [id, scope]);
  return row ?? null;
}

/** The first of a form's messages as the 422 the API gives, naming its field. */
function refuse(errors: Record<string, string | undefined>): void {
  const [field, message] = Object.entries(errors).find(([, m]) => m) ?? [];
  if (field) throw new DomainError('invalid', message!, field);
}

/** A company the viewer may put a record in: an existing one, and their own when they are a company's staff. */
async function checkCompany(db: Queryable, scope: Scope, companyId: number): Promise<void> {
  const [company] = await db.query<{ id: number }>('SELECT id FROM companies WHERE id = $1', [companyId]);
  if (!company) throw new DomainError('invalid', 'Choose a company from the list.', 'company_id');
  if (scope !== null && companyId !== scope) throw new DomainError('invalid', "You can only keep your own company's records.", 'company_id');
}

/** Which unique rule a write broke, as the field and words of the form (PostgreSQL's constraint names, or its text on PGlite). */
function uniqueProblem(err: unknown, rules: [RegExp, string, string][]): never {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e.code === '23505') {
    const said = `${e.constraint ?? ''} ${e.message ?? ''}`;
    const rule = rules.find(([pattern]) => pattern.test(said));
    if (rule) throw new DomainError('invalid', rule[2], rule[1]);
  }
  throw err;
}

/**
 * Adds a driver, or changes the one with `id` (within the viewer's scope: another company's is 404). Answers the
 * record as written and what it was before (null for a new one), for the audit log.
 */
export async function saveDriver(db: Queryable, scope: Scope, id: number | null, input: Partial<Record<keyof DriverRecordInput, unknown>>) {
  refuse(driverRecordErrors(input));
  const d = driverRecord(input);
  await checkCompany(db, scope, d.company_id);
  const before = id === null ? null : await driverById(db, scope, id);
  if (id !== null && !before) throw new DomainError('notFound', 'No such driver on your record.');
  const values = [d.name, d.mobile, d.email, d.licence_number, d.licensing_authority, d.licence_expiry, d.company_id, d.active];
  try {
    const [row] = id === null
      ? await db.query<{ id: number }>(
        `INSERT INTO drivers (name, mobile, email, licence_number, licensing_authority, licence_expiry, company_id, active)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`, values)
      : await db.query<{ id: number }>(
        `UPDATE drivers SET name = $1, mobile = $2, email = $3, licence_number = $4, licensing_authority = $5, licence_expiry = $6,
                company_id = $7, active = $8, updated_at = now()
          WHERE id = $9 RETURNING id`, [...values, id]);
    // A driver made inactive, or whose mobile or company changed (a lost phone), is signed out of every device at once
    // and any code sent is spent (issue 41 §2).
    if (!d.active || (before && (before.mobile !== d.mobile || before.company_id !== d.company_id))) {
      await db.query('DELETE FROM driver_sessions WHERE driver_id = $1', [row.id]);
      await db.query('UPDATE driver_codes SET used_at = now() WHERE driver_id = $1 AND used_at IS NULL', [row.id]);
    }
    return { id: row.id, driver: d, before };
  } catch (err) {
    return uniqueProblem(err, [
      [/mobile/, 'mobile', 'Another driver on the record has this mobile number: each driver signs in with their own.'],
      [/licen/, 'licence_number', 'Another driver on the record has this licence number from this licensing authority.'],
    ]);
  }
}

/** Adds a car, or changes the one with `id` (within the viewer's scope). */
export async function saveCar(db: Queryable, scope: Scope, id: number | null, input: Partial<Record<keyof CarRecordInput, unknown>>) {
  refuse(carRecordErrors(input));
  const car = carRecord(input);
  await checkCompany(db, scope, car.company_id);
  const [type] = await db.query<{ id: number }>('SELECT id FROM vehicle_types WHERE id = $1', [car.vehicle_type_id]);
  if (!type) throw new DomainError('invalid', 'Choose the vehicle type from the fleet.', 'vehicle_type_id');
  const before = id === null ? null : await carById(db, scope, id);
  if (id !== null && !before) throw new DomainError('notFound', 'No such car on your record.');
  const values = [car.registration, car.registration.replace(/\s+/g, ''), car.make, car.model, car.colour, car.vehicle_type_id, car.passengers,
    car.suitcases, car.wheelchair, car.licence_number, car.licence_expiry, car.mot_expiry, car.insurance_expiry, car.company_id, car.active];
  try {
    const [row] = id === null
      ? await db.query<{ id: number }>(
        `INSERT INTO cars (registration, plate_key, make, model, colour, vehicle_type_id, passengers, suitcases, wheelchair, licence_number,
                           licence_expiry, mot_expiry, insurance_expiry, company_id, active)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`, values)
      : await db.query<{ id: number }>(
        `UPDATE cars SET registration = $1, plate_key = $2, make = $3, model = $4, colour = $5, vehicle_type_id = $6, passengers = $7,
                suitcases = $8, wheelchair = $9, licence_number = $10, licence_expiry = $11, mot_expiry = $12, insurance_expiry = $13,
                company_id = $14, active = $15, updated_at = now()
          WHERE id = $16 RETURNING id`, [...values, id]);
    return { id: row.id, car, before };
  } catch (err) {
    return uniqueProblem(err, [[/plate/, 'registration', 'A car with this registration is already on the record.']]);
  }
}
