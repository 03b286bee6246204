// The booking record a licensing officer asks for (issue 43 §2): what each booking keeps from before its journey (the
// London text is regulation 11 of SI 2000/3146; councils add how it was booked, who took and who dispatched it, the
// driver's licence number and the number of passengers), the range of days the console's Records page shows, and the
// columns of its CSV. The console's page and the server read the same rules.
import { isCalendarDate } from './ukTime';

/** How a booking was taken: the website, a signed-in corporate passenger, or the office on the telephone. */
export const BOOKED_VIA = ['web', 'account', 'phone'] as const;
export type BookedVia = typeof BOOKED_VIA[number];
export const BOOKED_VIA_LABELS: Record<BookedVia, string> = { web: 'Website', account: 'Corporate account', phone: 'Telephone' };

/** The longest range the page and the CSV take at once: a quarter. */
export const RECORDS_MAX_DAYS = 92;

/** One booking as the record keeps it; times are UK dates and clock times as written on the record. */
export interface BookingRecord {
  reference: string; status: string;
  booked_at: string; booked_via: BookedVia; booked_by: string;
  passenger: string; passengers: number;
  pickup_date: string; pickup_time: string; pickup_place: string;
  /** The main destination: the drop-off, or "As directed" with the hours of an hourly hire. */
  destination: string;
  /** The journey's date when it is not the day of booking (the record says both then). */
  return_journey: string | null;
  fare_quoted: string; fare_charged: string;
  /** How the fare came to differ from the quote: a price set by hand (with its reason), a change, a refund. */
  fare_changes: string[];
  vehicle_type: string;
  driver: string | null; driver_licence: string | null; vehicle: string | null; registration: string | null;
  dispatched_by: string | null; dispatched_at: string | null;
  /** The company that carried the journey out (the operator's own, or the one it was passed to). */
  company: string;
  /** Every variation after booking, oldest first: what, when, by whom. */
  variations: string[];
}

/** The first and last UK day a range covers, both inclusive. */
export interface RecordsRange { from: string; to: string }

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** What is wrong with a range, on the field to correct; null when it can be shown. */
export function recordsRangeProblem(r: RecordsRange): { field: 'from' | 'to'; message: string } | null {
  if (!isCalendarDate(r.from)) return { field: 'from', message: 'Choose the first day.' };
  if (!isCalendarDate(r.to)) return { field: 'to', message: 'Choose the last day.' };
  const days = daysBetween(r.from, r.to);
  if (days < 0) return { field: 'to', message: 'The last day is before the first.' };
  if (days >= RECORDS_MAX_DAYS) return { field: 'to', message: `Choose at most ${RECORDS_MAX_DAYS} days at a time.` };
  return null;
}

/** The range an address asks for (/operator/records?from=2026-11-24&to=2026-11-24); a day left out is today (UK). */
export function recordsRangeOf(search: string, today: string): RecordsRange {
  const p = new URLSearchParams(search);
  const from = p.get('from') || today;
  return { from, to: p.get('to') || from };
}

/** A UK date as the record writes it: 2026-11-24 is 24/11/2026. */
export const recordDate = (iso: string): string => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The address of a range, as the page keeps it in the address bar. */
export const searchOfRecordsRange = (r: RecordsRange): string => `?from=${r.from}&to=${r.to}`;

/** The CSV's columns, in order, with the record's field each is read from. */
export function recordColumns(): readonly (readonly [string, (r: BookingRecord) => string | number])[] {
  const list = (xs: string[]) => xs.join(' | ');
  return [
    ['reference', (r) => r.reference],
    ['status', (r) => r.status],
    ['booked_at', (r) => r.booked_at],
    ['booked_via', (r) => BOOKED_VIA_LABELS[r.booked_via]],
    ['booked_by', (r) => r.booked_by],
    ['passenger', (r) => r.passenger],
    ['passengers', (r) => r.passengers],
    ['pickup_date', (r) => r.pickup_date],
    ['pickup_time', (r) => r.pickup_time],
    ['pickup_place', (r) => r.pickup_place],
    ['main_destination', (r) => r.destination],
    ['return_journey', (r) => r.return_journey ?? ''],
    ['fare_quoted_gbp', (r) => r.fare_quoted],
    ['fare_charged_gbp', (r) => r.fare_charged],
    ['fare_changes', (r) => list(r.fare_changes)],
    ['vehicle_type', (r) => r.vehicle_type],
    ['driver', (r) => r.driver ?? ''],
    ['driver_licence', (r) => r.driver_licence ?? ''],
    ['vehicle', (r) => r.vehicle ?? ''],
    ['registration', (r) => r.registration ?? ''],
    ['dispatched_by', (r) => r.dispatched_by ?? ''],
    ['dispatched_at', (r) => r.dispatched_at ?? ''],
    ['company', (r) => r.company],
    ['variations', (r) => list(r.variations)],
  ];
}

/** Who took a booking, as the record says it. */
export function bookedBy(via: BookedVia, staffName: string | null): string {
  if (via === 'phone') return staffName ? `${staffName} (office)` : 'The office';
  return via === 'account' ? 'The passenger, signed in' : 'The passenger, online';
}

/** The operator as its records are headed: its name and address, and its licence and the authority that issued it. */
export interface RecordsOperator { name: string; address: string; licence_number: string; licensing_authority: string }
/** GET /operator/records: the heading, the range shown (today when none was asked for), and the records. */
export interface RecordsAnswer {
  operator: RecordsOperator; range: RecordsRange;
  /** A company's staff: the company whose records these are (theirs alone); null for the office. */
  company: string | null;
  records: BookingRecord[];
  /** More bookings than one answer carries were picked up in the range: the first are shown, and fewer days asked for. */
  more?: boolean;
}
