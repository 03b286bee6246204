// The register of booking and dispatch staff (issue 43 §4; the DfT Statutory Taxi and Private Hire Vehicle Standards
// ask an operator to keep one, with the basic DBS check of each): who works in the office, their role, and the DBS
// certificate number each showed and the date it was seen. The console's form, `npm run admin -- add-staff` and the
// server check by these rules; the register's rows are made here for the console's CSV and the command alike.
import { isCalendarDate } from './ukTime';

export interface DbsInput { dbs_number?: string | null; dbs_seen_on?: string | null }
export interface Dbs { dbs_number: string | null; dbs_seen_on: string | null }
export type DbsErrors = Partial<Record<keyof Dbs, string>>;

/** A DBS certificate number as kept: its 12 digits, the spaces and dashes people type left out. */
export const dbsDigits = (v: string | null | undefined) => (v ?? '').replace(/[\s-]/g, '');

/**
 * What is wrong with a DBS certificate number and the date it was seen (both or neither: a number is recorded with the
 * day it was seen, and a day with the number seen). A certificate number is 12 digits; it cannot have been seen after
 * `today` (UK date).
 */
export function dbsErrors(v: DbsInput, today: string): DbsErrors {
  const e: DbsErrors = {};
  const number = dbsDigits(v.dbs_number);
  const seen = (v.dbs_seen_on ?? '').trim();
  if (number && !/^\d{12}$/.test(number)) e.dbs_number = 'A DBS certificate number is 12 digits, as printed on the certificate.';
  if (seen && !isCalendarDate(seen)) e.dbs_seen_on = 'Enter the date the certificate was seen, as a date.';
  else if (seen && seen > today) e.dbs_seen_on = 'The date the certificate was seen cannot be in the future.';
  if (number && !seen && !e.dbs_number) e.dbs_seen_on = 'Enter the date the certificate was seen.';
  if (seen && !number && !e.dbs_seen_on) e.dbs_number = 'Enter the certificate number that was seen.';
  return e;
}

/** The DBS record to keep once dbsErrors found nothing: both, or neither. */
export const dbsRecord = (v: DbsInput): Dbs => {
  const number = dbsDigits(v.dbs_number);
  return number ? { dbs_number: number, dbs_seen_on: (v.dbs_seen_on ?? '').trim() } : { dbs_number: null, dbs_seen_on: null };
};

/** A certificate number as people read it: '0012 3456 7890'. */
export const formatDbs = (n: string | null | undefined) => (n && /^\d{12}$/.test(n) ? `${n.slice(0, 4)} ${n.slice(4, 8)} ${n.slice(8)}` : n ?? '');

export interface RegisterRow {
  name: string; email: string; role: string; company_name: string | null; active: boolean; created_at: string;
  dbs_number: string | null; dbs_seen_on: string | null;
}

/** The register's columns, as its CSV heads them. */
export const REGISTER_COLUMNS = ['Name', 'E-mail', 'Role', 'Company', 'Can sign in', 'Added', 'DBS certificate number', 'DBS certificate seen on'] as const;

/** The register, one record a member of staff, keyed by its columns (the server writes it as CSV). */
export function registerRows(rows: RegisterRow[], roleLabel: (role: string) => string): Record<typeof REGISTER_COLUMNS[number], string>[] {
  return rows.map((r) => ({
    Name: r.name, 'E-mail': r.email, Role: roleLabel(r.role), Company: r.company_name ?? '', 'Can sign in': r.active ? 'Yes' : 'No',
    Added: r.created_at, 'DBS certificate number': formatDbs(r.dbs_number), 'DBS certificate seen on': r.dbs_seen_on ?? '',
  }));
}
