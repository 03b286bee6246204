// Who hears of what a passenger does to their booking, and how much (issue 39, decision 49). Every message to a
// passenger address because of a change, a cancellation or Find my booking counts against that address's allowance
// (messagesToAddress), in the transaction that writes it: a request refused for any reason is undone with what it
// counted. Only the address the booking was made with (its confirmation went there) reads text a visitor wrote; any
// other, given later by a change, gets fixed words (templates.ts bookingChangedNotice, `plain`).
import type { Queryable } from '../db/index';
import { DomainError } from '../errors';
import { addressKey, takeAllowance, type Limits } from '../limits';

/** The address the booking was made with: the passenger's e-mail before its first change, else the one it has. */
export async function bookedAddress(q: Queryable, bookingId: number, current: string): Promise<string> {
  const [first] = await q.query<{ email: string | null }>(
    "SELECT before->>'passenger_email' AS email FROM booking_changes WHERE booking_id = $1 ORDER BY id LIMIT 1", [bookingId]);
  return first?.email ?? current;
}

/** Whether `to` is the mailbox the booking was made with (however it is capitalised). */
export const isBookedAddress = (booked: string, to: string) => addressKey(booked) === addressKey(to);

/**
 * One message to `to`, counted against its allowance in the caller's transaction; false when the allowance is used
 * up, and then the caller sends nothing (a cancellation is made all the same; Find my booking answers as always).
 */
export async function countMessage(q: Queryable, limits: Limits, to: string): Promise<boolean> {
  try {
    await takeAllowance(q, limits, [{ limit: 'messagesToAddress', key: addressKey(to) }]);
    return true;
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'tooMany') return false;
    throw err;
  }
}
