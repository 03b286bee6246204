// How the driver's page words dates, times and numbers: UK days in words ("Today", "Tomorrow", "Thursday 12
// September"), 24-hour times in UK time, a UK mobile as it is dialled.
import { UK_TIME_ZONE, isCalendarDate, ukToday } from '../../../domain/ukTime';
import type { DriverJob } from '../../../../machines/driver';

const DAY = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY;

/** A pickup date in words, against today in the UK: Today, Tomorrow, Yesterday, or the day itself. */
export function dayWords(date: string, today = ukToday()): string {
  if (!isCalendarDate(date)) return date;
  const diff = dayNumber(date) - dayNumber(today);
  if (diff === 0) return 'Today';
  if (diff === 1) return 'Tomorrow';
  if (diff === -1) return 'Yesterday';
  // The year only when it is not this one.
  const full = dateWords(date);
  return date.slice(0, 4) === today.slice(0, 4) ? full.slice(0, full.lastIndexOf(' ')) : full;
}

/** The full date in words: "Thursday 12 September 2030". */
export function dateWords(date: string): string {
  if (!isCalendarDate(date)) return date;
  const parts = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
    .formatToParts(new Date(`${date}T00:00:00Z`));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')} ${part('year')}`;
}

/** A pickup time as the booking keeps it ("07:15" or "07:15:00"): "07:15". */
export const timeWords = (time: string) => /^\d{1,2}:\d{2}/.exec(time)?.[0].padStart(5, '0') ?? time;

/** An instant (ISO) as a UK clock time: "07:45". */
export function clockAt(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: UK_TIME_ZONE }).format(new Date(iso));
}

/** A stored number (E.164) as it is dialled: +447700900321 -> 07700 900321; any other as it is. */
export function phoneWords(e164: string): string {
  const uk = /^\+44(\d{4})(\d{6})$/.exec(e164);
  return uk ? `0${uk[1]} ${uk[2]}` : e164;
}

/** Today's jobs (and any earlier one still under way), then those to come. */
export function byDay(jobs: DriverJob[], today = ukToday()): { today: DriverJob[]; upcoming: DriverJob[] } {
  return { today: jobs.filter((j) => j.pickup_date <= today), upcoming: jobs.filter((j) => j.pickup_date > today) };
}

/** Where the job goes: its drop-off, or the hours it is booked for. */
export function destination(job: Pick<DriverJob, 'dropoff' | 'hourly'>): string {
  if (job.dropoff) return job.dropoff;
  const hours = parseInt(job.hourly ?? '', 10);
  return Number.isFinite(hours) ? `Hourly hire, ${hours} hour${hours === 1 ? '' : 's'}, as directed` : 'As directed by the passenger';
}
