// Booking rules checked before any price is given (SPEC 8's urgent-booking errors).
import type { Queryable } from '../db/index';
import { hour12To24, ukLocalToInstant } from '../../domain/ukTime';
import { ukTimeSkipped, SKIPPED_HOUR_MESSAGE } from '../../domain/clockChanges';
import { graceMinutes, type Settings } from '../../domain/settings';
import { DomainError } from '../errors';
import { reference } from '../reference/referenceData';

import { BANNED_ADDRESS_MESSAGE, GRACE_PERIOD_MESSAGE } from '../../domain/messages';

export { BANNED_ADDRESS_MESSAGE, GRACE_PERIOD_MESSAGE };

/** The instant of a UK pickup given as the booking form stores it. */
export function pickupInstant(date: string, hour12: string, min: string): Date {
  // A pure function of its text, but each call formats two dates in the UK time zone: remembered (a few thousand).
  const key = `${date} ${hour12} ${min}`;
  let ms = instants.get(key);
  if (ms === undefined) {
    ms = ukLocalToInstant(date, hour12To24(hour12), Number(min)).getTime();
    if (instants.size >= MAX_INSTANTS) instants.delete(instants.keys().next().value!);
    instants.set(key, ms);
  }
  return new Date(ms);
}

const MAX_INSTANTS = 4096;
const instants = new Map<string, number>();

/** A time the clocks skip (01:00-01:59 on the last Sunday of March) is refused, not moved an hour on (issue 27). */
export function checkTimeExists(date: string, hour12: string, min: string, field: string): void {
  if (ukTimeSkipped(date, hour12To24(hour12), Number(min))) throw new DomainError('invalid', SKIPPED_HOUR_MESSAGE, field);
}

/** A pickup sooner than GRACE_TIME minutes from now (or in the past) must be booked by phone. */
export function checkGracePeriod(at: Date, settings: Settings, now: Date, field = 'pickup_date'): void {
  const graceMs = graceMinutes(settings) * 60_000;
  if (at.getTime() - now.getTime() < graceMs) throw new DomainError('invalid', GRACE_PERIOD_MESSAGE, field);
}

const normalise = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** Any address containing a banned pattern (case, spacing and punctuation ignored) is refused. */
export async function checkBanned(db: Queryable, addresses: { field: string; text: string }[]): Promise<void> {
  const { banned } = await reference(db);
  if (!banned.length) return;
  const patterns = banned.map(normalise).filter(Boolean);
  for (const a of addresses) {
    const text = ` ${normalise(a.text)} `;
    if (patterns.some((p) => text.includes(` ${p} `))) throw new DomainError('invalid', BANNED_ADDRESS_MESSAGE, a.field);
  }
}
