// Booking numbers: BK- and eight characters a person can read over the phone.
import { randomFillSync } from 'node:crypto';
import { BOOKING_REFERENCE_ALPHABET } from '../../domain/bookingReference';

/** A reference a person can read over the phone: no 0/O or 1/I (src/domain/bookingReference.ts, which the contact form checks too). */
export function newBookingNumber(): string {
  const n = BOOKING_REFERENCE_ALPHABET.length;
  let ref = '';
  // One draw of random bytes (eight randomInt calls were 2% of a booking's CPU). The alphabet's 32 characters divide
  // a byte's 256 values evenly, so a byte's remainder picks each character equally often, and no byte is wasted.
  for (let i = 0; i < 8; i++) ref += BOOKING_REFERENCE_ALPHABET[randomByte() % n];
  return `BK-${ref}`;
}

/** Random bytes drawn 4 kB at a time (a draw per booking number was 2% of a booking's CPU). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function randomByte(): number {
  if (poolAt >= pool.length) { randomFillSync(pool); poolAt = 0; }
  return pool[poolAt++];
}
