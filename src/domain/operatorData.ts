// The parts of the operator's data an administrator changes from the console (issue 26), and the changes the
// console sends (src/server/operator/operatorData.ts applies them).
export const DATA_SECTIONS = ['settings', 'companies', 'fleet', 'places', 'staff', 'audit'] as const;
export type DataSection = typeof DATA_SECTIONS[number];
export const isDataSection = (s: string): s is DataSection => (DATA_SECTIONS as readonly string[]).includes(s);
export const SECTION_LABELS: Record<DataSection, string> = {
  settings: 'Settings', companies: 'Companies', fleet: 'Fleet and rates', places: 'Places', staff: 'Staff', audit: 'Audit log',
};

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
  | { kind: 'addStaff'; email: string; name: string; role: string; company?: string }
  | { kind: 'removeStaff'; email: string };
