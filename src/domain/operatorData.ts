// The parts of the operator's data changed from the console (issue 26), and the changes the console sends
// (src/server/operator/operatorData.ts applies them). Administrators reach every part; the drivers and cars on record
// (issue 41) are every member of staff's, a company's staff seeing their own company's only.
import type { CarRecordInput, DriverRecordInput } from './fleetRecords';

export const DATA_SECTIONS = ['settings', 'companies', 'fleet', 'places', 'staff', 'drivers', 'cars', 'audit'] as const;
export type DataSection = typeof DATA_SECTIONS[number];
export const isDataSection = (s: string): s is DataSection => (DATA_SECTIONS as readonly string[]).includes(s);
export const SECTION_LABELS: Record<DataSection, string> = {
  settings: 'Settings', companies: 'Companies', fleet: 'Fleet and rates', places: 'Places', staff: 'Staff', drivers: 'Drivers',
  cars: 'Vehicles', audit: 'Audit log',
};

/** The parts every member of staff keeps (a company's staff their own company's records), and their changes. */
const EVERY_ROLE: readonly DataSection[] = ['drivers', 'cars'];
const EVERY_ROLE_CHANGES: readonly string[] = ['driver', 'car'];
const isStaffRole = (role: string | null | undefined) => role === 'admin' || role === 'dispatcher' || role === 'company';

/** The parts of the operator data a role may open, in the order the console lists them. */
export const sectionsFor = (role: string | null | undefined): DataSection[] =>
  DATA_SECTIONS.filter((s) => role === 'admin' || (isStaffRole(role) && EVERY_ROLE.includes(s)));

/** Whether a role may make a change of this kind: an administrator any, other staff the drivers' and cars'. */
export const mayChange = (role: string | null | undefined, kind: string): boolean =>
  role === 'admin' || (isStaffRole(role) && EVERY_ROLE_CHANGES.includes(kind));

/** A change an administrator makes, as the console sends it. */
export type DataChange =
  | { kind: 'setting'; name: string; value: string }
  | { kind: 'company'; company_name: string; contact_phone?: string; contact_email?: string; address?: string }
  | { kind: 'companyActive'; company_name: string; active: boolean }
  | { kind: 'vehicle'; category_name: string; seats: string | number; luggage: string | number; hand_luggage: string | number; sort_order?: string | number }
  | { kind: 'rate'; company_id: number; vehicle_type_id: number; base: string; minimum: string; hourly: string; bands: { from_miles: string | number; per_mile: string }[] }
  | { kind: 'address'; address: string; postcode?: string; lat: string | number; lon: string | number; place_kind?: string }
  | { kind: 'ban'; pattern: string; reason?: string }
  | { kind: 'unban'; pattern: string }
  | { kind: 'addStaff'; email: string; name: string; role: string; company?: string; dbs_number?: string; dbs_seen_on?: string }
  /** The staff register's DBS record of a member of staff (issue 43): both, or both empty to clear it. */
  | { kind: 'staffDbs'; email: string; dbs_number?: string; dbs_seen_on?: string }
  | { kind: 'removeStaff'; email: string }
  /** A driver on record: a new one, or the one with `id`. */
  | ({ kind: 'driver'; id?: number | string } & Partial<DriverRecordInput>)
  | ({ kind: 'car'; id?: number | string } & Partial<CarRecordInput>);
