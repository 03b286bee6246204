// What the two registers read (issue 43 §3, decision 61): the booking an entry names, the lists, one entry with its
// history, and the export. Every read takes the viewer's scope: a company's staff see only the entries about their
// company's bookings (an entry about no booking, or another company's, is not found); the office sees all.
import type { Queryable } from '../db/index';
import { entryNumber, LOST_KIND_LABELS, REGISTER_LABELS, SOURCE_LABELS, type LostKind, type Register, type Source } from '../../domain/casework';

/** The table of each register (a fixed name, never one a request typed). */
export const TABLE: Record<Register, string> = { complaints: 'complaints', 'lost-property': 'lost_property' };

/** What an entry copies from the booking it names: the booking's company, its day, and its driver and car as dispatched. */
export interface BookingLink {
  booking_id: number; booking_reference: string; company_id: number; booking_date: string;
  driver_id: number | null; car_id: number | null; driver_name: string; driver_licence: string; vehicle_registration: string;
}

/** The booking of a reference (matched whatever its case), when the viewer may see it; null otherwise. */
export async function bookingLink(db: Queryable, scope: number | null, reference: string): Promise<BookingLink | null> {
  if (!reference) return null;
  const [row] = await db.query<BookingLink>(
    `SELECT b.id AS booking_id, b.booking_number AS booking_reference, b.company_id, to_char(b.pick_up_date, 'YYYY-MM-DD') AS booking_date,
            b.driver_id, b.car_id, coalesce(b.driver->>'name', '') AS driver_name, coalesce(b.driver->>'licence_number', '') AS driver_licence,
            coalesce(b.driver->>'registration', '') AS vehicle_registration
       FROM bookings b WHERE b.booking_number = upper(btrim($1)) AND ($2::int IS NULL OR b.company_id = $2)`, [reference, scope]);
  return row ?? null;
}

/** The columns an entry takes from its booking, cleared when it names none. */
export const linkValues = (link: BookingLink | null) => ({
  booking_id: link?.booking_id ?? null, company_id: link?.company_id ?? null, driver_id: link?.driver_id ?? null, car_id: link?.car_id ?? null,
  driver_name: link?.driver_name ?? '', driver_licence: link?.driver_licence ?? '', vehicle_registration: link?.vehicle_registration ?? '',
});

const UK_DAY = (column: string) => `to_char(${column} AT TIME ZONE 'Europe/London', 'YYYY-MM-DD')`;
const UK_TIME = (column: string) => `to_char(${column} AT TIME ZONE 'Europe/London', 'DD-MM-YYYY HH24:MI')`;

export interface EntryRow {
  id: number; number: string; status: 'open' | 'closed'; kind: string | null; source: Source; source_label: string;
  booking_reference: string; booking_linked: boolean; booking_date: string | null; company_name: string | null;
  driver_name: string; vehicle_registration: string; contact_name: string; summary: string; opened_at: string; closed_at: string | null;
}

export interface ListFilters { status: 'open' | 'closed' | 'all'; q: string }

/** One register, newest first, for one viewer; at most 200 rows, with how many matched. */
export async function entryRows(db: Queryable, register: Register, scope: number | null, f: ListFilters): Promise<{ rows: EntryRow[]; total: number }> {
  const complaint = register === 'complaints';
  const q = f.q.trim().replace(/[%_\\]/g, '\\$&');
  const rows = await db.query<Omit<EntryRow, 'number' | 'source_label'> & { matched: number }>(
    `SELECT e.id, e.status, ${complaint ? 'NULL' : 'e.kind'} AS kind, e.source, e.booking_reference, e.booking_id IS NOT NULL AS booking_linked,
            to_char(e.booking_date, 'YYYY-MM-DD') AS booking_date, c.company_name, e.driver_name, e.vehicle_registration, e.contact_name,
            left(${complaint ? 'e.nature' : 'e.description'}, 140) AS summary, ${UK_TIME('e.opened_at')} AS opened_at,
            ${UK_TIME('e.closed_at')} AS closed_at, count(*) OVER ()::int AS matched
       FROM ${TABLE[register]} e LEFT JOIN companies c ON c.id = e.company_id
      WHERE ($1::int IS NULL OR e.company_id = $1) AND ($2::text = 'all' OR e.status = $2)
        AND ($3::text = '' OR e.booking_reference ILIKE '%' || $3 || '%' OR e.contact_name ILIKE '%' || $3 || '%'
             OR e.contact_email ILIKE '%' || $3 || '%' OR e.driver_name ILIKE '%' || $3 || '%' OR e.vehicle_registration ILIKE '%' || $3 || '%'
             OR ${complaint ? 'e.nature' : 'e.description'} ILIKE '%' || $3 || '%')
      ORDER BY e.opened_at DESC, e.id DESC LIMIT 200`, [scope, f.status, q]);
  return {
    rows: rows.map(({ matched: _m, ...r }) => ({ ...r, number: entryNumber(register, r.id), source_label: SOURCE_LABELS[r.source] ?? r.source })),
    total: rows[0]?.matched ?? 0,
  };
}

/** Every column of one entry as the console's form reads it (dates as YYYY-MM-DD), when the viewer may see it. */
export async function entryOf(db: Queryable, register: Register, scope: number | null, id: number) {
  const dates = register === 'complaints' ? ['booking_date'] : ['booking_date', 'found_on', 'reported_on', 'lost_on'];
  const [row] = await db.query<Record<string, unknown> & { id: number; status: 'open' | 'closed'; booking_id: number | null; company_id: number | null }>(
    `SELECT e.*, ${dates.map((d) => `to_char(e.${d}, 'YYYY-MM-DD') AS ${d}`).join(', ')}, c.company_name,
            ${UK_TIME('e.opened_at')} AS opened_at, ${UK_TIME('e.closed_at')} AS closed_at, ${UK_DAY('e.closed_at')} AS closed_on
       FROM ${TABLE[register]} e LEFT JOIN companies c ON c.id = e.company_id
      WHERE e.id = $1 AND ($2::int IS NULL OR e.company_id = $2)`, [id, scope]);
  if (!row) return null;
  const { updated_at: _u, ...entry } = row;
  return { ...entry, number: entryNumber(register, row.id) };
}
export type Entry = NonNullable<Awaited<ReturnType<typeof entryOf>>>;

/** Who did what to an entry, oldest first (its rows of the audit log, written with its number as their subject). */
export async function entryHistory(db: Queryable, register: Register, id: number) {
  return db.query<{ at: string; action: string; by: string }>(
    `SELECT ${UK_TIME('created_at')} AS at, action, staff_name AS by FROM audit_log
      WHERE subject = $1 AND action LIKE $2 ORDER BY id`, [entryNumber(register, id), `${REGISTER_LABELS[register].one}%`]);
}

/** The export's columns, in order: one row per entry (decision 61 names those holding personal data). */
export const EXPORT_COLUMNS: Record<Register, string[]> = {
  complaints: [
    'number', 'status', 'received_on', 'source', 'booking_reference', 'booking_date', 'company_name', 'driver_name', 'driver_licence',
    'vehicle_registration', 'contact_name', 'contact_email', 'contact_phone', 'nature', 'investigation', 'action_taken', 'notes', 'outcome',
    'opened_by', 'closed_on', 'closed_by',
  ],
  'lost-property': [
    'number', 'kind', 'status', 'received_on', 'source', 'booking_reference', 'booking_date', 'company_name', 'driver_name', 'driver_licence',
    'vehicle_registration', 'description', 'found_on', 'found_place', 'return_attempts', 'disposal', 'reported_on', 'lost_on', 'lost_place',
    'searches', 'contact_name', 'contact_email', 'contact_phone', 'notes', 'outcome', 'opened_by', 'closed_on', 'closed_by',
  ],
};

/** The entries opened between two UK days (inclusive), oldest first, as the export writes them. */
export async function exportEntries(db: Queryable, register: Register, scope: number | null, from: string, to: string) {
  const dates = register === 'complaints' ? ['booking_date'] : ['booking_date', 'found_on', 'reported_on', 'lost_on'];
  const rows = await db.query<Record<string, unknown> & { id: number; source: Source; kind?: string }>(
    `SELECT e.*, ${dates.map((d) => `coalesce(to_char(e.${d}, 'DD/MM/YYYY'), '') AS ${d}`).join(', ')}, coalesce(c.company_name, '') AS company_name,
            to_char(e.opened_at AT TIME ZONE 'Europe/London', 'DD/MM/YYYY HH24:MI') AS received_on,
            coalesce(to_char(e.closed_at AT TIME ZONE 'Europe/London', 'DD/MM/YYYY'), '') AS closed_on, coalesce(e.closed_by, '') AS closed_by
       FROM ${TABLE[register]} e LEFT JOIN companies c ON c.id = e.company_id
      WHERE (e.opened_at AT TIME ZONE 'Europe/London')::date BETWEEN $2::date AND $3::date AND ($1::int IS NULL OR e.company_id = $1)
      ORDER BY e.opened_at, e.id`, [scope, from, to]);
  return rows.map((r) => ({
    ...r, number: entryNumber(register, r.id), source: SOURCE_LABELS[r.source] ?? r.source,
    ...(r.kind ? { kind: LOST_KIND_LABELS[r.kind as LostKind] ?? r.kind } : {}),
  }));
}
