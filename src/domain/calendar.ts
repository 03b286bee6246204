// The confirmation page's 'Add to calendar' file (issue 10): an iCalendar
// (RFC 5545) text with one event for the pickup and one for the return, times in
// UTC from the UK wall-clock times the booking holds. Built in the browser from
// the booking it already shows; nothing is fetched.
import type { BookingResult } from './schemas';
import { ukLocalToInstant } from './ukTime';

export interface CalendarContext {
  /** The operator's name and telephone, as the site shows them. */
  company: string;
  phone?: string;
  /** The amount as the confirmation page shows it ('£45'). */
  amount: string;
  paymentLabel: string;
  now?: Date;
}

/** A transfer's event lasts an hour from pickup (the car is there then; the trip's length is not promised). */
const TRANSFER_MINUTES = 60;

export function bookingCalendar(result: BookingResult, ctx: CalendarContext): string {
  const { booking, bookingStops } = result;
  const hourlyHours = parseInt(booking.hourly_duration ?? '', 10);
  const minutes = Number.isFinite(hourlyHours) && hourlyHours > 0 ? hourlyHours * 60 : TRANSFER_MINUTES;
  const vehicle = `${booking.fleet_category.category_name} (${booking.company_name})`;
  const stamp = utc(ctx.now ?? new Date());
  const route = [booking.pick_up_address, ...bookingStops.map((s) => [s.stop_street_number, s.stop_address, s.stop_post_code].filter(Boolean).join(' ')), booking.drop_off_address]
    .filter((x): x is string => Boolean(x));
  const about = [
    `Booking reference: ${booking.booking_number}`,
    `Vehicle: ${vehicle}`,
    `Total: ${ctx.amount} (${ctx.paymentLabel})`,
    ...(booking.flight_no ? [`Flight / train: ${booking.flight_no}`] : []),
    ...(ctx.phone ? [`Questions or changes: ${ctx.company}, ${ctx.phone}`] : [`Booked with ${ctx.company}`]),
  ];

  const events = [event({
    uid: `${booking.booking_number}-pickup`, stamp, start: instant(booking.pick_up_date, booking.pick_up_time), minutes,
    summary: `${hourlyHours > 0 ? 'Chauffeur' : 'Taxi'} pickup: ${booking.booking_number}`,
    location: booking.pick_up_address,
    description: [`Route: ${route.join(' → ')}`, ...about],
  })];
  if (booking.return_date && booking.return_time) {
    events.push(event({
      uid: `${booking.booking_number}-return`, stamp, start: instant(booking.return_date, booking.return_time), minutes: TRANSFER_MINUTES,
      summary: `Taxi return pickup: ${booking.booking_number}`,
      location: booking.drop_off_address ?? booking.pick_up_address,
      description: [`Route: ${[...route].reverse().join(' → ')}`, ...about.map((l) => (l.startsWith('Flight') && booking.return_flight_no ? `Flight / train: ${booking.return_flight_no}` : l))],
    }));
  }
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:-//${text(ctx.company)}//Taxi booking//EN`, 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', ...events.flat(), 'END:VCALENDAR'];
  return lines.map(fold).join('\r\n') + '\r\n';
}

/** The file name offered for download: booking-BK-7KQ2M9A4.ics. */
export const calendarFileName = (result: BookingResult): string => `booking-${result.booking.booking_number.replace(/[^\w-]/g, '')}.ics`;

function event(e: { uid: string; stamp: string; start: Date; minutes: number; summary: string; location: string; description: string[] }): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${e.uid}@taxi-booking`,
    `DTSTAMP:${e.stamp}`,
    `DTSTART:${utc(e.start)}`,
    `DTEND:${utc(new Date(e.start.getTime() + e.minutes * 60_000))}`,
    `SUMMARY:${text(e.summary)}`,
    `LOCATION:${text(e.location)}`,
    `DESCRIPTION:${text(e.description.join('\n'))}`,
    'BEGIN:VALARM', 'ACTION:DISPLAY', `DESCRIPTION:${text(e.summary)}`, 'TRIGGER:-PT1H', 'END:VALARM',
    'END:VEVENT',
  ];
}

/** '2026-11-24' and '09:30' (UK wall clock) -> the instant. */
function instant(date: string, time: string): Date {
  const [h, m] = time.split(':').map(Number);
  return ukLocalToInstant(date, h, m);
}

/** 2026-11-24T09:30:00Z -> 20261124T093000Z */
const utc = (d: Date): string => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** RFC 5545 TEXT: backslash, semicolon, comma and newlines escaped. */
const text = (s: string): string => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** RFC 5545 3.1: lines longer than 75 octets continue on the next line after a space; characters are not split. */
function fold(line: string): string {
  const bytes = (s: string) => new TextEncoder().encode(s).length;
  const parts: string[] = [];
  let current = '';
  for (const ch of line) {
    if (bytes(current + ch) > (parts.length === 0 ? 75 : 74)) { parts.push(current); current = ''; }
    current += ch;
  }
  parts.push(current);
  return parts.join('\r\n ');
}
