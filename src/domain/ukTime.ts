// UK local time (Europe/London, BST aware) for pickup dates and times.
export const UK_TIME_ZONE = 'Europe/London';

export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

interface UkParts { date: string; hour: number; minute: number }

/** UK summer time (BST, UTC+1) since 1996: from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October. */
const SUMMER_TIME_RULE_SINCE = 1996;
/** 01:00 UTC on the last Sunday of a month (0-based) of a year. */
function lastSundayAtOneUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

let ukFormat: Intl.DateTimeFormat | null = null;
/** Earlier years, by the time-zone database (a formatter is costly to build: made once, and only when needed). */
function ukPartsByIntl(instant: Date): UkParts {
  ukFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: UK_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  });
  const parts = ukFormat.formatToParts(instant);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, hour: Number(get('hour')), minute: Number(get('minute')) };
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * The calendar date and clock time in the UK at an instant. From 1996 by the summer-time rule itself (plain date
 * arithmetic: the first page needs today's UK date, and building a time-zone formatter cost 25-47 ms of its first
 * render, decision 30); tests check it against the time-zone database hour by hour.
 */
export function ukPartsAt(instant: Date): UkParts {
  const t = instant.getTime();
  const year = instant.getUTCFullYear();
  if (!Number.isFinite(t) || year < SUMMER_TIME_RULE_SINCE) return ukPartsByIntl(instant);
  const summer = t >= lastSundayAtOneUtc(year, 2) && t < lastSundayAtOneUtc(year, 9);
  const local = new Date(t + (summer ? 3_600_000 : 0));
  return {
    date: `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}`,
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
  };
}

export function ukToday(now: Date = new Date()): string {
  return ukPartsAt(now).date;
}

/**
 * The instant at which a UK wall-clock time happens. In the autumn hour that happens twice it is the second one (GMT,
 * after the clocks go back); the page and the e-mails say so (manageRules.ts ukMoment).
 */
export function ukLocalToInstant(date: string, hour24: number, minute: number): Date {
  const [y, mo, d] = date.split('-').map(Number);
  const asUtc = Date.UTC(y, mo - 1, d, hour24, minute);
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const p = ukPartsAt(new Date(guess));
    const [py, pmo, pd] = p.date.split('-').map(Number);
    const shownAsUtc = Date.UTC(py, pmo - 1, pd, p.hour, p.minute);
    guess += asUtc - shownAsUtc;
  }
  return new Date(guess);
}

/** '3pm' -> 15, '12am' -> 0, '12pm' -> 12. */
export function hour12To24(hour: string): number {
  const m = /^(1[0-2]|[1-9])(am|pm)$/.exec(hour);
  if (!m) throw new Error(`Not a 12-hour clock hour: ${hour}`);
  const h = Number(m[1]) % 12;
  return m[2] === 'pm' ? h + 12 : h;
}

/** 15 -> '3pm', 0 -> '12am'. */
export function hour24To12(hour: number): string {
  const suffix = hour < 12 ? 'am' : 'pm';
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h}${suffix}`;
}

/**
 * The earliest pickup the server takes (decision 20): UK time now plus the grace period, rounded up to five minutes,
 * as the booking forms store it. The date moves on when needed (23:58 plus 0 minutes is 00:00 the next day).
 */
export function ukEarliestPickup(graceMinutes: number, now: Date = new Date()): { date: string; hour: string; min: string } {
  const rounded = new Date(Math.ceil((now.getTime() + graceMinutes * 60_000) / 300_000) * 300_000);
  const p = ukPartsAt(rounded);
  return { date: p.date, hour: hour24To12(p.hour), min: String(p.minute).padStart(2, '0') };
}

/** '2026-11-21' -> '21-11-2026' (SPEC 2 confirmation format). */
export function formatDateUK(date: string | null | undefined): string {
  if (!date || !isCalendarDate(date)) return date ?? '';
  const [y, m, d] = date.split('-');
  return `${d}-${m}-${y}`;
}

/** '15:05' or ('3pm', '05') -> '3:05 PM'. */
export function formatTime12(time: string | null | undefined): string {
  if (!time) return '';
  const m = /^(\d{1,2}):(\d{2})/.exec(time);
  if (!m) return time;
  const h = Number(m[1]);
  const suffix = h < 12 ? 'AM' : 'PM';
  return `${h % 12 === 0 ? 12 : h % 12}:${m[2]} ${suffix}`;
}

/** ('3pm', '05') -> '15:05', the 24-hour form bookings store. */
export function toTime24(hour: string, min: string): string {
  return `${String(hour12To24(hour)).padStart(2, '0')}:${min}`;
}

/** '2026-11-21' -> 'Sat 21 Nov 2026' for summaries. */
export function formatDateLong(date: string): string {
  if (!isCalendarDate(date)) return date;
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(Date.UTC(y, m - 1, d)));
}

